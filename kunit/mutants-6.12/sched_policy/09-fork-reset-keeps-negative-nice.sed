# file: kernel/sched/core.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl x86_64-nort arm-nort arm-nosys
# Reset-on-fork keeps a fair parent's negative nice level.
/^int sched_fork(/,/^}$/ s/^\t\t} else if (PRIO_TO_NICE(p->static_prio) < 0)$/\t\t} else if (0)/
