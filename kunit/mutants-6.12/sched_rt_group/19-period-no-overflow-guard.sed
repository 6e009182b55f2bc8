# file: kernel/sched/rt.c
# step: 00
# sched_group_set_rt_period(): let the conversion to nanoseconds overflow.
/^int sched_group_set_rt_period(/,/^}/ s/if (rt_period_us > U64_MAX \/ NSEC_PER_USEC)/if (0)/
