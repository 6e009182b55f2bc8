# file: kernel/sched/core.c
# step: 00
# until: 05
# A deadline boost of a queued task does not replenish it with the donor's parameters.
/^void rt_mutex_setprio(/,/^}$/ { /^\t\t\tqueue_flag |= ENQUEUE_REPLENISH;$/d }
