# file: kernel/sched/core.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl
# A child of an RT parent starts in the fair class.
/^int sched_fork(/,/^}$/ s/^\t\tp->sched_class = \&rt_sched_class;$/\t\tp->sched_class = \&fair_sched_class;/
