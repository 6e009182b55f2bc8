# file: kernel/sched/deadline.c
# step: 00
# The runtime floor admits exactly 1 << DL_SCALE: make it reject it.
/^bool __checkparam_dl(/,/^}/ s/if (attr->sched_runtime < (1ULL << DL_SCALE))/if (attr->sched_runtime <= (1ULL << DL_SCALE))/
