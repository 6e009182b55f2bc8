# file: kernel/sched/deadline.c
# step: 03
# cells: x86_64-smp arm-smp
# Do not refuse a user's SCHED_DEADLINE task in a domain without bandwidth (sched_dl_can_setscheduler()).
/^bool sched_dl_can_setscheduler(/,/^}$/ s/rq->rd->dl_bw.bw == 0)/false)/
