# file: kernel/sched/rt.c
# step: 00
# Let the root group's runtime go to 0.
/^static int tg_set_rt_bandwidth(/,/^}/ s/if (tg == \&root_task_group \&\& rt_runtime == 0)/if (0)/
