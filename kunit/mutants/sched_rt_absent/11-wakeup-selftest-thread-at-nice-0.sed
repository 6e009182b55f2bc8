# file: kernel/sched/core.c
# step: 22
# tiny: SCHED_CLASS_RT
# tiny cells: arm-nort
# sched_set_fifo() without the class gives nice 0: the wakeup tracer's
# self-test thread no longer gets above its waker (and the suites'
# fallback checks fail too).
/^void sched_set_fifo(/,/^}$/ s/^\t\tsched_set_normal(p, task_nice(p) ?: MIN_NICE);$/\t\tsched_set_normal(p, 0);/
