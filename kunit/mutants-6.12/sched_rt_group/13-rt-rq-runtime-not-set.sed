# file: kernel/sched/rt.c
# step: 00
# tg_set_rt_bandwidth(): leave the per-CPU rt_rq runtime alone.
/^static int tg_set_rt_bandwidth(/,/^}/ s/^\t\trt_rq->rt_runtime = rt_runtime;/\t\t;/
