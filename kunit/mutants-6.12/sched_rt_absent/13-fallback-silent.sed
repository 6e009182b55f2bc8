# file: kernel/sched/syscalls.c
# step: 22
# tiny: SCHED_CLASS_RT
# sched_set_fifo()'s fallback replaces a nice level other than 0 and -20
# without saying so.
/^static void sched_set_fifo_fallback(/,/^}$/ s/^\tif (nice \&\& nice != MIN_NICE)$/\tif (0)/
