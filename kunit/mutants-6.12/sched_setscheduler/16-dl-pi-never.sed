# file: kernel/sched/syscalls.c
# step: 00
# until: 04
# Never look for a donor when a boosted task leaves SCHED_DEADLINE.
/^int __sched_setscheduler(/,/^}/ s/if (dl_prio(newprio) && !dl_policy(policy)) {/if (!dl_prio(newprio) \&\& !dl_policy(policy)) {/
