# file: kernel/sched/rt.c
# The walk sums a changing child with its old runtime, not the new one.
/^static int tg_rt_schedulable(/,/^}/ s/if (child == d->tg) {/if (0) {/
