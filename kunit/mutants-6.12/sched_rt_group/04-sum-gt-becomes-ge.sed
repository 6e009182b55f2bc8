# file: kernel/sched/rt.c
# step: 00
# Refuse children whose sum equals the parent.
/^static int tg_rt_schedulable(/,/^}/ s/if (sum > total)/if (sum >= total)/
