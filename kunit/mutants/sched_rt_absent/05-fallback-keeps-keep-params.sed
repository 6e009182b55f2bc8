# file: kernel/sched/core.c
# tiny: SCHED_RT
# The fallback keeps SCHED_FLAG_KEEP_PARAMS: the request changes nothing.
/^static int __sched_setscheduler(/,/^}$/ { /^\t\tfair_attr\.sched_flags &= ~SCHED_FLAG_KEEP_ALL;$/d }
