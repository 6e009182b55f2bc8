# file: kernel/sched/deadline.c
# step: 00
# Ignore the sysctls: use the default limits always.
/^bool __checkparam_dl(/,/^}/ s/max = (u64)READ_ONCE(sysctl_sched_dl_period_max) \* NSEC_PER_USEC;/max = (u64)(1 << 22) * NSEC_PER_USEC;/
/^bool __checkparam_dl(/,/^}/ s/min = (u64)READ_ONCE(sysctl_sched_dl_period_min) \* NSEC_PER_USEC;/min = (u64)100 * NSEC_PER_USEC;/
