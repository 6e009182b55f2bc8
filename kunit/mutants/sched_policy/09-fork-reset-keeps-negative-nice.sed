# file: kernel/sched/core.c
# step: 00
# tiny cells: x86_64-nort
# In x86_64-nort too (killed there at step 12 of v6): fork without the RT class.
# Reset-on-fork keeps a fair parent's negative nice level.
/^int sched_fork(/,/^}$/ s/^\t\t} else if (PRIO_TO_NICE(p->static_prio) < 0)$/\t\t} else if (0)/
