# file: kernel/sched/syscalls.c
# step: 22
# tiny: SCHED_CLASS_RT
# sched_set_fifo_low() without the class asks for SCHED_FIFO anyway: it is
# refused (a WARN), and the task stays at its nice level.
/^void sched_set_fifo_low(/,/^}$/ s/^\tif (!IS_ENABLED(CONFIG_SCHED_CLASS_RT)) {$/\tif (0) {/
