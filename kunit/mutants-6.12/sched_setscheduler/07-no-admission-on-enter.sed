# file: kernel/sched/syscalls.c
# step: 00
# Skip bandwidth admission for a task entering SCHED_DEADLINE.
/^int __sched_setscheduler(/,/^}/ s/if ((dl_policy(policy) || dl_task(p)) && sched_dl_overflow(p, policy, attr)) {/if (dl_task(p) \&\& sched_dl_overflow(p, policy, attr)) {/
