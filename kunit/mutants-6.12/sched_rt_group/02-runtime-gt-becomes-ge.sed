# file: kernel/sched/rt.c
# step: 00
# Refuse runtime == period.
/^static int tg_rt_schedulable(/,/^}/ s/if (runtime > period \&\& runtime != RUNTIME_INF)/if (runtime >= period \&\& runtime != RUNTIME_INF)/
