# file: kernel/sched/syscalls.c
# step: 27
# tiny: SCHED_ATTR_SYSCALLS
# tiny cells: arm-nosys
# sched_setattr() and sched_getattr() are built without CONFIG_SCHED_ATTR_SYSCALLS.
s/^#ifdef CONFIG_SCHED_ATTR_SYSCALLS$/#if 1/
