# file: kernel/sched/syscalls.c
# step: 04
# Refuse every policy, not only RT ones, in a group without RT runtime (the
# policy test before sched_rt_can_setscheduler()).
/^int __sched_setscheduler(/,/^}$/ s/if (rt_policy(policy) \&\& !sched_rt_can_setscheduler(p)) {/if (!sched_rt_can_setscheduler(p)) {/
