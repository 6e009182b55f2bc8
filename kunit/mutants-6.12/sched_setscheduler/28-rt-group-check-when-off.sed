# file: kernel/sched/rt.c
# step: 04
# Apply the RT group rule even with sched_rt_runtime_us = -1 (sched_rt_can_setscheduler()).
/^bool sched_rt_can_setscheduler(/,/^}$/ s/if (rt_bandwidth_enabled() \&\& tg->/if (tg->/
