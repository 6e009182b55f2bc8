# file: kernel/sched/core.c
# step: 11
# tiny: SCHED_RT
# User space's SCHED_FIFO/SCHED_RR requests get the fallback instead of -EINVAL.
/^static int __sched_setscheduler(/,/^}$/ s/^\tif (!IS_ENABLED(CONFIG_SCHED_RT) && !user &&$/\tif (!IS_ENABLED(CONFIG_SCHED_RT) \&\&/
