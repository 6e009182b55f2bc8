# file: kernel/sched/core.c
# Admit a user's SCHED_DEADLINE task whatever its affinity.
/^static int __sched_setscheduler(/,/^}/ s/if (!cpumask_subset(span, p->cpus_ptr) ||/if (false ||/
