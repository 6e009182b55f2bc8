# file: kernel/sched/core.c
# step: 00
# tiny: SCHED_CLASS_DL
# rt_mutex_setprio(): the class follows the old priority, so a boost never changes it.
/^void rt_mutex_setprio(/,/^}/ s/^\tnext_class = __setscheduler_class(p->policy, prio);/\tnext_class = __setscheduler_class(p->policy, oldprio);/
