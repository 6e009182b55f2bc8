# file: kernel/sched/rt.c
# Refuse runtime == period.
/^static int tg_rt_schedulable(/,/^}/ s/if (runtime > period \&\& runtime != RUNTIME_INF)/if (runtime >= period \&\& runtime != RUNTIME_INF)/
