# file: kernel/sched/syscalls.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl x86_64-nort arm-nort arm-nosys
# sched_setscheduler() sets nice 0 instead of keeping the task's.
/^static int _sched_setscheduler(/,/^}$/ s/^\t\t\.sched_nice\t= PRIO_TO_NICE(p->static_prio),$/\t\t.sched_nice\t= 0,/
