# file: kernel/sched/deadline.c
# step: 00
# expect: survive: a deadline or period with bit 63 set is always above the
# largest period limit (UINT_MAX us), so the range check rejects it too.
/^bool __checkparam_dl(/,/^}/ s/if (attr->sched_deadline & (1ULL << 63) ||/if (0 \&\& attr->sched_deadline \& (1ULL << 63) ||/
