# file: kernel/sched/syscalls.c
# step: 22
# tiny: SCHED_CLASS_RT
# sched_set_fifo() without the class keeps the task's nice level: no boost.
/^static void sched_set_fifo_fallback(/,/^}$/ s/^\tsched_set_normal(p, MIN_NICE);$/\tsched_set_normal(p, nice);/
