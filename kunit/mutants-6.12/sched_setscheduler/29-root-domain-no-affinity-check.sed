# file: kernel/sched/deadline.c
# step: 03
# cells: x86_64-smp arm-smp
# Admit a user's SCHED_DEADLINE task whatever its affinity (sched_dl_can_setscheduler()).
/^bool sched_dl_can_setscheduler(/,/^}$/ s/if (!cpumask_subset(span, p->cpus_ptr) ||/if (false ||/
