# file: kernel/sched/deadline.c
# Reject deadline == period.
/^bool __checkparam_dl(/,/^}/ s/if (period < attr->sched_deadline ||/if (period <= attr->sched_deadline ||/
