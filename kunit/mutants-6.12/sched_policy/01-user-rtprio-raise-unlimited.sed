# file: kernel/sched/syscalls.c
# step: 00
# tiny cells: arm-nodl
# An unprivileged caller may raise an RT priority past RLIMIT_RTPRIO.
/^static int user_check_sched_setscheduler(/,/^}$/ s/^\t\t    attr->sched_priority > rlim_rtprio)$/\t\t    0)/
