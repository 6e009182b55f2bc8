# file: kernel/sched/rt.c
# step: 00
# Drop the max_rt_runtime bound.
/^static int tg_set_rt_bandwidth(/,/^}/ s/if (rt_runtime != RUNTIME_INF \&\& rt_runtime > max_rt_runtime)/if (0)/
