# file: kernel/sched/core.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl x86_64-nort arm-nort arm-nosys
# A child inherits its parent's boosted priority.
/^int sched_fork(/,/^}$/ s/^\tp->prio = current->normal_prio;$/\tp->prio = current->prio;/
