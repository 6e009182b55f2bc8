# file: kernel/sched/core.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl
# A task whose prio becomes an RT one stays in the fair class.
/^const struct sched_class \*__setscheduler_class(/,/^}$/ s/^\t\treturn \&rt_sched_class;$/\t\treturn \&fair_sched_class;/
