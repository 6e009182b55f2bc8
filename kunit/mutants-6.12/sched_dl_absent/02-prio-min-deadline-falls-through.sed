# file: kernel/sched/syscalls.c
# step: 08
# tiny: SCHED_CLASS_DL
# sched_get_priority_min(SCHED_DEADLINE) without the class answers 0, as with it.
/^SYSCALL_DEFINE1(sched_get_priority_min,/,/^}/ { /^\t\tif (!IS_ENABLED(CONFIG_SCHED_CLASS_DL))$/,/^\t\t\tbreak;$/d }
