# file: kernel/sched/core.c
# step: 00
# Skip bandwidth admission for a task entering SCHED_DEADLINE.
/^static int __sched_setscheduler(/,/^}/ s/if ((dl_policy(policy) || dl_task(p)) && sched_dl_overflow(p, policy, attr)) {/if (dl_task(p) \&\& sched_dl_overflow(p, policy, attr)) {/
