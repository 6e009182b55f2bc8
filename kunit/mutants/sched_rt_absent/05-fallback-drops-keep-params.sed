# file: kernel/sched/core.c
# step: 11
# tiny: SCHED_RT
# The fallback drops SCHED_FLAG_KEEP_PARAMS: a request that keeps the
# parameters sets nice -20.
/^static int __sched_setscheduler_fair(/,/^}$/ s/^\tfair_attr\.sched_nice = MIN_NICE;$/&\n\tfair_attr.sched_flags \&= ~SCHED_FLAG_KEEP_ALL;/
