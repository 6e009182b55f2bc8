# file: kernel/sched/core.c
# step: 11
# tiny: SCHED_RT
# The fallback for the kernel's RT requests at nice -10 instead of -20.
/^static int __sched_setscheduler_fair(/,/^}$/ s/^\tfair_attr\.sched_nice = MIN_NICE;$/\tfair_attr.sched_nice = MIN_NICE + 10;/
