# file: kernel/sched/core.c
# step: 00
# until: 05
# rt_mutex_setprio(): compare the deadlines the wrong way round.
/^void rt_mutex_setprio(/,/^}/ s/dl_entity_preempt(&pi_task->dl, &p->dl)/dl_entity_preempt(\&p->dl, \&pi_task->dl)/
