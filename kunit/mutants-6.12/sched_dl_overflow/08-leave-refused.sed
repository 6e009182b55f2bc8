# file: kernel/sched/deadline.c
# step: 00
# Refuse a task that leaves SCHED_DEADLINE.
/^int sched_dl_overflow(/,/^}/ s/} else if (!dl_policy(policy) \&\& task_has_dl_policy(p)) {/} else if (0) {/
