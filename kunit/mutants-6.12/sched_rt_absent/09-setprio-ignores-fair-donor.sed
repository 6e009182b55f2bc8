# file: kernel/sched/core.c
# step: 00
# tiny: SCHED_CLASS_RT
# rt_mutex_setprio() ignores a fair donor's priority: no boost between fair
# tasks.
/^void rt_mutex_setprio(/,/^}$/ s/^\tprio = __rt_effective_prio(pi_task, p->normal_prio);$/\tprio = p->normal_prio;/
