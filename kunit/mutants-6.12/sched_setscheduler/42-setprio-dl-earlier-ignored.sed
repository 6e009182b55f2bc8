# file: kernel/sched/deadline.c
# step: 06
# rt_mutex_setprio_dl(): compare the deadlines the wrong way round.
/^int rt_mutex_setprio_dl(/,/^}$/ s/dl_entity_preempt(&pi_task->dl, &p->dl)/dl_entity_preempt(\&p->dl, \&pi_task->dl)/
