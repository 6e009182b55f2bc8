# file: kernel/sched/core.c
# step: 11
# tiny: SCHED_RT
# The fallback drops the request's flags, SCHED_FLAG_RESET_ON_FORK with them.
/^static int __sched_setscheduler_fair(/,/^}$/ s/^\tfair_attr\.sched_nice = MIN_NICE;$/&\n\tfair_attr.sched_flags = 0;/
