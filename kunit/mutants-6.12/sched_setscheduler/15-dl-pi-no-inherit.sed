# file: kernel/sched/syscalls.c
# step: 00
# until: 04
# A deadline task leaving the class while boosted keeps its own entity.
/^int __sched_setscheduler(/,/^}/ s/^\t\t\t\tp->dl.pi_se = pi_task->dl.pi_se;/\t\t\t\t;/
