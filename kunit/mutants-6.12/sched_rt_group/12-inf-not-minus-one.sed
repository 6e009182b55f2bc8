# file: kernel/sched/rt.c
# step: 00
# sched_group_rt_runtime(): report RUNTIME_INF as a number.
/^long sched_group_rt_runtime(/,/^}/ s/if (tg->rt_bandwidth.rt_runtime == RUNTIME_INF)/if (0)/
