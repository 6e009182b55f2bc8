# file: kernel/sched/rt.c
# step: 00
# A RUNTIME_INF child adds nothing to its parent's sum.
/^static int tg_rt_schedulable(/,/^}/ s/^\t\tsum += to_ratio(period, runtime);/\t\tsum += runtime == RUNTIME_INF ? 0 : to_ratio(period, runtime);/
