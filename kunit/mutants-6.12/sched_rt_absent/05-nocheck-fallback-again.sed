# file: kernel/sched/syscalls.c
# step: 00
# tiny: SCHED_CLASS_RT
# sched_setscheduler_nocheck() gives the old fallback again: a kernel
# SCHED_FIFO/SCHED_RR request succeeds as SCHED_NORMAL at nice -20 (its
# nice level lost) instead of -EINVAL.
/^int sched_setscheduler_nocheck(/,/^}$/ s/^\treturn _sched_setscheduler(p, policy, param, false);$/\tif (!IS_ENABLED(CONFIG_SCHED_CLASS_RT) \&\& (policy == SCHED_FIFO || policy == SCHED_RR) \&\&\n\t    param->sched_priority >= 1 \&\& param->sched_priority < MAX_RT_PRIO) {\n\t\tsched_set_normal(p, MIN_NICE);\n\t\treturn 0;\n\t}\n&/
