# file: kernel/sched/deadline.c
# step: 06
# A deadline boost of a queued task does not replenish it with the donor's parameters (rt_mutex_setprio_dl()).
/^int rt_mutex_setprio_dl(/,/^}$/ s/^\t\treturn ENQUEUE_REPLENISH;$/\t\treturn 0;/
