# file: kernel/sched/deadline.c
# step: 00
# sched_rt_runtime_us = -1: set a limit of one CPU instead of none.
/^void sched_dl_do_global(/,/^}/ s/if (global_rt_runtime() != RUNTIME_INF)/if (1)/
