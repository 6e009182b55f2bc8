# file: kernel/sched/core.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl x86_64-nort arm-nort
# The sched_setattr() system call reports success and sets nothing.
/^SYSCALL_DEFINE3(sched_setattr,/,/^}$/ s/^\t\tretval = sched_setattr(p, &attr);$/\t\tretval = 0;/
