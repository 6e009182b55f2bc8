# file: kernel/sched/syscalls.c
# step: 00
# Skip admission for a task that is a deadline task only by a boost.
/^int __sched_setscheduler(/,/^}/ s/if ((dl_policy(policy) || dl_task(p)) \&\& sched_dl_overflow(p, policy, attr)) {/if (dl_policy(policy) \&\& sched_dl_overflow(p, policy, attr)) {/
