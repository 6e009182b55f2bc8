# file: kernel/sched/syscalls.c
# step: 00
# until: 02
# cells: x86_64-smp arm-smp
# Admit a user's SCHED_DEADLINE task whatever its affinity.
/^int __sched_setscheduler(/,/^}/ s/if (!cpumask_subset(span, p->cpus_ptr) ||/if (false ||/
