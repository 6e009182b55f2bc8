# file: kernel/sched/rt.c
# step: 00
# sched_rt_global_validate(): let the runtime exceed the period.
/^static int sched_rt_global_validate(/,/^}/ s/((sysctl_sched_rt_runtime > sysctl_sched_rt_period) ||/((0) ||/
