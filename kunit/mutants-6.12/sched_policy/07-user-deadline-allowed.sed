# file: kernel/sched/syscalls.c
# step: 00
# An unprivileged caller may make a task SCHED_DEADLINE.
/^static int user_check_sched_setscheduler(/,/^}$/ s/^\tif (dl_policy(policy))$/\tif (0)/
