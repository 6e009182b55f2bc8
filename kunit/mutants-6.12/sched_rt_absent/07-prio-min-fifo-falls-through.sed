# file: kernel/sched/syscalls.c
# step: 22
# tiny: SCHED_CLASS_RT
# sched_get_priority_min(SCHED_FIFO/RR) without the class answers 1, as with it.
/^SYSCALL_DEFINE1(sched_get_priority_min,/,/^}/ { /^\t\tif (!IS_ENABLED(CONFIG_SCHED_CLASS_RT))$/,/^\t\t\tbreak;$/d }
