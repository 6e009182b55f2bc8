# file: kernel/sched/rt.c
# step: 00
# Accept a period of 0.
/^static int tg_set_rt_bandwidth(/,/^}/ s/if (rt_period == 0)/if (0)/
