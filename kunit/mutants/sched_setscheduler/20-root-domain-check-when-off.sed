# file: kernel/sched/core.c
# Apply the root-domain rule even with sched_rt_runtime_us = -1.
/^static int __sched_setscheduler(/,/^}/ s/if (dl_bandwidth_enabled() \&\& dl_policy(policy) \&\&/if (dl_policy(policy) \&\&/
