# file: kernel/sched/syscalls.c
# step: 00
# tiny: SCHED_CLASS_DL
# sched_getattr(): an RT task's priority is not reported.
/^static void get_params(/,/^}/ s/^\t\tattr->sched_priority = p->rt_priority;/\t\tattr->sched_priority = 0;/
