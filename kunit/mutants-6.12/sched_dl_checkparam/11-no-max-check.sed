# file: kernel/sched/deadline.c
# step: 00
# Drop the upper period limit.
/^bool __checkparam_dl(/,/^}/ s/if (period < min || period > max)/if (period < min)/
