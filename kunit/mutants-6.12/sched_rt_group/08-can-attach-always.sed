# file: kernel/sched/rt.c
# step: 00
# sched_rt_can_attach(): always yes.
/^int sched_rt_can_attach(/,/^}/ s/if (rt_task(tsk) \&\& tg->rt_bandwidth.rt_runtime == 0)/if (0)/
