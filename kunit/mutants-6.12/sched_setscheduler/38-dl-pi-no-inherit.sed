# file: kernel/sched/deadline.c
# step: 05
# A deadline task leaving the class while boosted keeps its own entity (__setscheduler_dl_pi() in deadline.c).
/^int __setscheduler_dl_pi(/,/^}$/ s/^\t\tp->dl.pi_se = pi_task->dl.pi_se;/\t\t;/
