# file: kernel/sched/syscalls.c
# step: 00
# Do not check SCHED_DEADLINE parameters: bad ones reach admission.
/^int __sched_setscheduler(/,/^}/ s/if ((dl_policy(policy) && !__checkparam_dl(attr)) ||/if ((dl_policy(policy) \&\& false) ||/
