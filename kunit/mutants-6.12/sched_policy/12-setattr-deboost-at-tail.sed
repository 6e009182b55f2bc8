# file: kernel/sched/syscalls.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl
# A queued task whose priority goes down is queued at the tail.
/^int __sched_setscheduler(/,/^}$/ { /^\t\t\tqueue_flags |= ENQUEUE_HEAD;$/d }
