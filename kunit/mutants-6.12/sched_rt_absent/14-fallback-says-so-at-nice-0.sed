# file: kernel/sched/syscalls.c
# step: 22
# tiny: SCHED_CLASS_RT
# sched_set_fifo()'s fallback says it replaced a nice level for a task at
# the default nice 0 too, where nothing is lost (and its one message goes
# to that task).
/^static void sched_set_fifo_fallback(/,/^}$/ s/^\tif (nice \&\& nice != MIN_NICE)$/\tif (nice != MIN_NICE)/
