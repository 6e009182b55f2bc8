# file: kernel/sched/syscalls.c
# step: 00
# until: 03
# Refuse every policy, not only RT ones, in a group without RT runtime.
/^int __sched_setscheduler(/,/^}/ s/if (rt_bandwidth_enabled() && rt_policy(policy) &&/if (rt_bandwidth_enabled() \&\&/
