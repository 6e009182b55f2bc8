# file: kernel/sched/syscalls.c
# step: 22
# tiny: SCHED_CLASS_RT
# sched_set_fifo() without the class goes on, after its fallback, to the
# SCHED_FIFO request, which is refused: a WARN on every call.
/^void sched_set_fifo(/,/^}$/ s/^\t\treturn;$/\t\t;/
