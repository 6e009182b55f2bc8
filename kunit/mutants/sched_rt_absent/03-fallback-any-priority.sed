# file: kernel/sched/core.c
# step: 11
# tiny: SCHED_RT
# A kernel RT request with an invalid priority (0, 100) gets the fallback
# instead of -EINVAL.
/^static int __sched_setscheduler(/,/^}$/ s/^\t    attr->sched_priority >= 1 && attr->sched_priority <= MAX_RT_PRIO - 1)$/\t    1)/
