# file: kernel/sched/rt.c
# step: 00
# Protect RT tasks from a zero runtime even when throttling is off.
/^static int tg_rt_schedulable(/,/^}/ s/if (rt_bandwidth_enabled() \&\& !runtime \&\&/if (!runtime \&\&/
