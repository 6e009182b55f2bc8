# file: kernel/sched/deadline.c
# step: 00
# A deadline task taken off its runqueue for a change (DEQUEUE_SAVE) keeps its active utilization there.
/^static void dequeue_task_dl(/,/^}$/ s/if (p->on_rq == TASK_ON_RQ_MIGRATING || flags & DEQUEUE_SAVE) {/if (p->on_rq == TASK_ON_RQ_MIGRATING) {/
