# file: kernel/sched/syscalls.c
# step: 00
# until: 03
# Apply the RT group rule even with sched_rt_runtime_us = -1.
/^int __sched_setscheduler(/,/^}/ s/if (rt_bandwidth_enabled() \&\& rt_policy(policy) \&\&/if (rt_policy(policy) \&\&/
