# file: kernel/sched/core.c
# step: 00
# until: 05
# A deadline boost leaves the owner on its own parameters.
/^void rt_mutex_setprio(/,/^}$/ s/^\t\t\tp->dl.pi_se = pi_task->dl.pi_se;$/\t\t\tp->dl.pi_se = \&p->dl;/
