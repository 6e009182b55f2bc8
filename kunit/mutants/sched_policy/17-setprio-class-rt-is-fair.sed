# file: kernel/sched/core.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl
# A task whose prio becomes an RT one stays in the fair class.
/^static void __setscheduler_prio(/,/^}$/ s/^\t\tp->sched_class = \&rt_sched_class;$/\t\tp->sched_class = \&fair_sched_class;/
