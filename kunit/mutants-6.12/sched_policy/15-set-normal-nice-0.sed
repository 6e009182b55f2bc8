# file: kernel/sched/syscalls.c
# step: 00
# tiny cells: x86_64-tiny arm-tiny arm-nodl x86_64-nort arm-nort arm-nosys
# sched_set_normal() ignores its nice level.
/^void sched_set_normal(/,/^}$/ s/^\t\t\.sched_nice = nice,$/\t\t.sched_nice = 0,/
