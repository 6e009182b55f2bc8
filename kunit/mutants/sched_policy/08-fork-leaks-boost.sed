# file: kernel/sched/core.c
# step: 00
# A child inherits its parent's boosted priority.
/^int sched_fork(/,/^}$/ s/^\tp->prio = current->normal_prio;$/\tp->prio = current->prio;/
