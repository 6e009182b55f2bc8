# file: kernel/sched/core.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl
# Reset-on-fork keeps the parent's rt_priority.
/^int sched_fork(/,/^}$/ { /^\t\t\tp->rt_priority = 0;$/d }
