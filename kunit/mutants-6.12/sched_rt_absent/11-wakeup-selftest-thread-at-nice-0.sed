# file: kernel/sched/syscalls.c
# step: 22
# tiny: SCHED_CLASS_RT
# tiny cells: arm-nort
# sched_set_fifo() without the class gives nice 0: the wakeup tracer's
# self-test thread no longer gets above its waker (and the suites'
# fallback checks fail too).
/^static void sched_set_fifo_fallback(/,/^}$/ s/^\tsched_set_normal(p, MIN_NICE);$/\tsched_set_normal(p, 0);/
