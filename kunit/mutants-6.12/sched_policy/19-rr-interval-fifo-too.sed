# file: kernel/sched/rt.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl
# sched_rr_get_interval() gives SCHED_FIFO tasks the RR slice.
/^static unsigned int get_rr_interval_rt(/,/^}$/ s/^\tif (task->policy == SCHED_RR)$/\tif (rt_policy(task->policy))/
