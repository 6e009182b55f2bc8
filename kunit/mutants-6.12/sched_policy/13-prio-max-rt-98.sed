# file: kernel/sched/syscalls.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl
# sched_get_priority_max() says 98 for SCHED_FIFO and SCHED_RR.
s/^\t\tret = MAX_RT_PRIO-1;$/\t\tret = MAX_RT_PRIO-2;/
