# file: kernel/sched/syscalls.c
# step: 00
# until: 01
# cells: x86_64-smp arm-smp
# Apply the root-domain rule even with sched_rt_runtime_us = -1.
/^int __sched_setscheduler(/,/^}/ s/if (dl_bandwidth_enabled() \&\& dl_policy(policy) \&\&/if (dl_policy(policy) \&\&/
