# file: kernel/sched/syscalls.c
# step: 00
# tiny cells: arm-nodl arm-nort
# An unprivileged caller may change another user's task.
/^static int user_check_sched_setscheduler(/,/^}$/ s/^\tif (!check_same_owner(p))$/\tif (0)/
