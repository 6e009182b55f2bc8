# file: kernel/sched/core.c
# step: 00
# Do not check SCHED_DEADLINE parameters: bad ones reach admission.
/^static int __sched_setscheduler(/,/^}/ s/if ((dl_policy(policy) && !__checkparam_dl(attr)) ||/if ((dl_policy(policy) \&\& false) ||/
