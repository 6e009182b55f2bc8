# file: kernel/sched/core.c
# step: 11
# tiny: SCHED_RT
# tiny cells: arm-nort
# The fallback at nice 0: the wakeup tracer's self-test thread no longer
# gets above its waker (and the suite's fallback checks fail too).
/^static int __sched_setscheduler_fair(/,/^}$/ s/^\tfair_attr\.sched_nice = MIN_NICE;$/\tfair_attr.sched_nice = 0;/
