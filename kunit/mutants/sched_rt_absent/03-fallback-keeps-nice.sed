# file: kernel/sched/core.c
# step: 12
# tiny: SCHED_CLASS_RT
# sched_set_fifo() without the class keeps the task's nice level: no boost.
/^void sched_set_fifo(/,/^}$/ s/^\t\tsched_set_normal(p, MIN_NICE);$/\t\tsched_set_normal(p, task_nice(p));/
