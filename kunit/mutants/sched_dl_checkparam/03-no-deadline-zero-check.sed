# file: kernel/sched/deadline.c
# Accept deadline == 0.
/^bool __checkparam_dl(/,/^}/ s/if (attr->sched_deadline == 0)$/if (0 \&\& attr->sched_deadline == 0)/
