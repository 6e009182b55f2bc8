# file: kernel/sched/core.c
# step: 00
# cells: x86_64-smp arm-smp
# until: 02
# Do not refuse a user's SCHED_DEADLINE task in a domain without bandwidth.
/^static int __sched_setscheduler(/,/^}/ s/rq->rd->dl_bw.bw == 0) {/false) {/
