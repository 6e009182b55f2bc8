# file: kernel/sched/core.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl x86_64-nort arm-nort arm-nosys
# A fair donor does not lift its owner's prio.
/^static inline int __rt_effective_prio(/,/^}$/ s/^\t\tprio = min(prio, pi_task->prio);$/\t\tprio = rt_prio(pi_task->prio) ? min(prio, pi_task->prio) : prio;/
