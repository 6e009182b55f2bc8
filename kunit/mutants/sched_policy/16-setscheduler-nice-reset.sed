# file: kernel/sched/core.c
# step: 00
# sched_setscheduler() sets nice 0 instead of keeping the task's.
/^static int _sched_setscheduler(/,/^}$/ s/^\t\t\.sched_nice\t= PRIO_TO_NICE(p->static_prio),$/\t\t.sched_nice\t= 0,/
