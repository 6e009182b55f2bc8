# file: kernel/sched/core.c
# step: 22
# tiny: SCHED_CLASS_RT
# sched_set_fifo() without the class keeps nice 0 too: no boost for a task
# at the default level.
/^void sched_set_fifo(/,/^}$/ s/^\t\tsched_set_normal(p, task_nice(p) ?: MIN_NICE);$/\t\tsched_set_normal(p, task_nice(p));/
