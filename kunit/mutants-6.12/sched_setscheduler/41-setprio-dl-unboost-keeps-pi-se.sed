# file: kernel/sched/deadline.c
# step: 06
# rt_mutex_setprio_dl(): a deadline-boosted task back to fair keeps the donor's entity.
/^int rt_mutex_setprio_dl(/,/^}$/ { /^\tp->dl.pi_se = &p->dl;$/d }
