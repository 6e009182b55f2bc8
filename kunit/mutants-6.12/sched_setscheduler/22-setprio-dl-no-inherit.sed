# file: kernel/sched/core.c
# step: 00
# until: 05
# rt_mutex_setprio(): a task boosted to a deadline priority keeps its own entity.
/^void rt_mutex_setprio(/,/^}/ s/^\t\t\tp->dl.pi_se = pi_task->dl.pi_se;/\t\t\tp->dl.pi_se = \&p->dl;/
