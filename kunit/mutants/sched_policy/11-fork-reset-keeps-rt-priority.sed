# file: kernel/sched/core.c
# step: 00
# Reset-on-fork keeps the parent's rt_priority.
/^int sched_fork(/,/^}$/ { /^\t\t\tp->rt_priority = 0;$/d }
