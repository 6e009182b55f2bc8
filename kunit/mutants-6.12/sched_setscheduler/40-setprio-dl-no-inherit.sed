# file: kernel/sched/deadline.c
# step: 06
# rt_mutex_setprio_dl(): a task boosted to a deadline priority keeps its own entity.
/^int rt_mutex_setprio_dl(/,/^}$/ s/^\t\tp->dl.pi_se = pi_task->dl.pi_se;/\t\tp->dl.pi_se = \&p->dl;/
