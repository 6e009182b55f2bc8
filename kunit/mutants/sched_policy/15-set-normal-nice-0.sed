# file: kernel/sched/core.c
# step: 00
# sched_set_normal() ignores its nice level.
/^void sched_set_normal(/,/^}$/ s/^\t\t\.sched_nice = nice,$/\t\t.sched_nice = 0,/
