# file: kernel/sched/core.c
# step: 00
# until: 04
# Never look for a donor when a boosted task leaves SCHED_DEADLINE.
/^static inline void __setscheduler_dl_pi(/,/^}/ s/if (dl_prio(newprio) && !dl_policy(policy)) {/if (!dl_prio(newprio) \&\& !dl_policy(policy)) {/
