# file: kernel/sched/rt.c
# step: 00
# sched_rt_handler(): keep a refused value.
/^static int sched_rt_handler(/,/^}/ s/^\t\tsysctl_sched_rt_period = old_period;/\t\t;/
