# file: kernel/sched/deadline.c
# step: 00
# Reject a period equal to the maximum.
/^bool __checkparam_dl(/,/^}/ s/if (period < min || period > max)/if (period < min || period >= max)/
