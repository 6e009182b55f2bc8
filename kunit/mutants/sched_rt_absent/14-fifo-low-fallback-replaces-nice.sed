# file: kernel/sched/core.c
# step: 22
# tiny: SCHED_CLASS_RT
# sched_set_fifo_low() without the class replaces a nice level other than 0
# with -20 (v7's fallback).
/^void sched_set_fifo_low(/,/^}$/ s/^\t\tsched_set_normal(p, task_nice(p) ?: MIN_NICE);$/\t\tsched_set_normal(p, MIN_NICE);/
