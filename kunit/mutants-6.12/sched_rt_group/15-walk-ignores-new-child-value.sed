# file: kernel/sched/rt.c
# step: 00
# The walk sums a changing child with its old runtime, not the new one.
/^static int tg_rt_schedulable(/,/^}/ s/if (child == d->tg) {/if (0) {/
