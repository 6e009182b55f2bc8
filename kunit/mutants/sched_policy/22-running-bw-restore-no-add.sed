# file: kernel/sched/deadline.c
# step: 00
# A deadline task queued again after a change (ENQUEUE_RESTORE) adds no active utilization.
/^static void enqueue_task_dl(/,/^}$/ s/if (p->on_rq == TASK_ON_RQ_MIGRATING || flags & ENQUEUE_RESTORE) {/if (p->on_rq == TASK_ON_RQ_MIGRATING) {/
