# file: kernel/sched/syscalls.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl
# sched_set_fifo_low() asks for priority 2.
/^void sched_set_fifo_low(/,/^}$/ s/\.sched_priority = 1 }/.sched_priority = 2 }/
