# file: kernel/sched/deadline.c
# step: 00
# Drop the SCHED_FLAG_SUGOV bypass.
/^bool __checkparam_dl(/,/^}/ s/if (attr->sched_flags & SCHED_FLAG_SUGOV)/if (0 \&\& (attr->sched_flags \& SCHED_FLAG_SUGOV))/
