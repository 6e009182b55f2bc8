# file: kernel/sched/syscalls.c
# step: 00
# tiny cells: arm-nodl arm-nort
# An unprivileged SCHED_IDLE task may leave SCHED_IDLE whatever its RLIMIT_NICE.
/^static int user_check_sched_setscheduler(/,/^}$/ s/^\tif (task_has_idle_policy(p) \&\& !idle_policy(policy)) {$/\tif (0) {/
