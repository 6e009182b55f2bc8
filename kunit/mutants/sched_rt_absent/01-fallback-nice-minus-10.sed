# file: kernel/sched/core.c
# step: 22
# tiny: SCHED_CLASS_RT
# sched_set_fifo() without the class gives nice -10 instead of -20.
/^void sched_set_fifo(/,/^}$/ s/^\t\tsched_set_normal(p, task_nice(p) ?: MIN_NICE);$/\t\tsched_set_normal(p, task_nice(p) ?: MIN_NICE + 10);/
