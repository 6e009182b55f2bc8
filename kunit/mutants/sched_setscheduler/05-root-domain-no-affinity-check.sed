# file: kernel/sched/core.c
# step: 00
# cells: x86_64-smp arm-smp
# until: 02
# Admit a user's SCHED_DEADLINE task whatever its affinity.
/^static int __sched_setscheduler(/,/^}/ s/if (!cpumask_subset(span, p->cpus_ptr) ||/if (false ||/
