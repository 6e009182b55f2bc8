# file: kernel/sched/syscalls.c
# step: 00
# tiny cells: arm-nodl
# An unprivileged caller may change the RT policy with RLIMIT_RTPRIO 0.
/^static int user_check_sched_setscheduler(/,/^}$/ s/^\t\tif (policy != p->policy \&\& !rlim_rtprio)$/\t\tif (0)/
