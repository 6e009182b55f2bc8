# file: kernel/sched/deadline.c
# step: 00
# Reject deadline == period.
/^bool __checkparam_dl(/,/^}/ s/if (period < attr->sched_deadline ||/if (period <= attr->sched_deadline ||/
