# file: kernel/sched/core.c
# step: 00
# cells: x86_64-smp arm-smp
# until: 01
# Apply the root-domain rule even with sched_rt_runtime_us = -1.
/^static int __sched_setscheduler(/,/^}/ s/if (dl_bandwidth_enabled() \&\& dl_policy(policy) \&\&/if (dl_policy(policy) \&\&/
