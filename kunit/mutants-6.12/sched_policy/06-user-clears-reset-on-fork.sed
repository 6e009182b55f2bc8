# file: kernel/sched/syscalls.c
# step: 00
# tiny cells: arm-nodl arm-nort
# An unprivileged caller may clear reset-on-fork.
/^static int user_check_sched_setscheduler(/,/^}$/ s/^\tif (p->sched_reset_on_fork \&\& !reset_on_fork)$/\tif (0)/
