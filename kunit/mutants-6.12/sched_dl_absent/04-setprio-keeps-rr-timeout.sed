# file: kernel/sched/core.c
# step: 23
# tiny: SCHED_CLASS_DL
# rt_mutex_setprio(): back from an RT boost to fair, the RLIMIT_RTTIME account (rt.timeout) is not reset.
/^void rt_mutex_setprio(/,/^}/ { /^\t\t\trt_task_clear_timeout(p);$/d }
