# file: kernel/sched/deadline.c
# step: 00
# Accept deadline == 0.
# expect: survive: runtime must be at least 1 << DL_SCALE and at most the
# deadline, so the order rule rejects a deadline of 0 too.
/^bool __checkparam_dl(/,/^}/ s/if (attr->sched_deadline == 0)$/if (0 \&\& attr->sched_deadline == 0)/
