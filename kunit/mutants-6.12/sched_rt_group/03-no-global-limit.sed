# file: kernel/sched/rt.c
# step: 00
# Skip the check against sched_rt_runtime_us / sched_rt_period_us.
/^static int tg_rt_schedulable(/,/^}/ s/if (total > to_ratio(global_rt_period(), global_rt_runtime()))/if (0)/
