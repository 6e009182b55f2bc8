# file: kernel/sched/core.c
# step: 00
# A fair donor does not lift its owner's prio.
/^static inline int __rt_effective_prio(/,/^}$/ s/^\t\tprio = min(prio, pi_task->prio);$/\t\tprio = rt_prio(pi_task->prio) ? min(prio, pi_task->prio) : prio;/
