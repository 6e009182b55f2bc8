# file: kernel/sched/deadline.c
# step: 00
# Reject runtime == deadline.
/^bool __checkparam_dl(/,/^}/ s/attr->sched_deadline < attr->sched_runtime)/attr->sched_deadline <= attr->sched_runtime)/
