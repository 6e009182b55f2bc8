# file: kernel/sched/core.c
# step: 00
# A child of an RT parent starts in the fair class.
/^int sched_fork(/,/^}$/ s/^\t\tp->sched_class = \&rt_sched_class;$/\t\tp->sched_class = \&fair_sched_class;/
