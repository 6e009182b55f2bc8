# file: kernel/sched/core.c
# step: 00
# tiny cells: x86_64-nort
# In x86_64-nort too (killed there at step 12 of v6): fork without the RT class.
# A child inherits its parent's boosted priority.
/^int sched_fork(/,/^}$/ s/^\tp->prio = current->normal_prio;$/\tp->prio = current->prio;/
