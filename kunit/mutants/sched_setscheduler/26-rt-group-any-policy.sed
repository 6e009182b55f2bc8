# file: kernel/sched/rt.c
# step: 04
# Refuse every policy, not only RT ones, in a group without RT runtime (sched_rt_can_setscheduler()).
/^bool sched_rt_can_setscheduler(/,/^}$/ s/if (rt_bandwidth_enabled() && rt_policy(policy) &&/if (rt_bandwidth_enabled() \&\&/
