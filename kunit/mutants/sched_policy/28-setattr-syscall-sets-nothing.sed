# file: kernel/sched/core.c
# step: 00
# The sched_setattr() system call reports success and sets nothing.
/^SYSCALL_DEFINE3(sched_setattr,/,/^}$/ s/^\t\tretval = sched_setattr(p, &attr);$/\t\tretval = 0;/
