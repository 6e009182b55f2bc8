# file: kernel/sched/syscalls.c
# step: 00
# until: 02
# cells: x86_64-smp arm-smp
# Do not refuse a user's SCHED_DEADLINE task in a domain without bandwidth.
/^int __sched_setscheduler(/,/^}/ s/rq->rd->dl_bw.bw == 0) {/false) {/
