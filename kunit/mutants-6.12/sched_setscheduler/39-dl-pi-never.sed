# file: kernel/sched/syscalls.c
# step: 05
# Never look for a donor when a boosted task leaves SCHED_DEADLINE (the caller of __setscheduler_dl_pi()).
/^int __sched_setscheduler(/,/^}$/ s/if (dl_prio(newprio) && !dl_policy(policy))$/if (!dl_prio(newprio) \&\& !dl_policy(policy))/
