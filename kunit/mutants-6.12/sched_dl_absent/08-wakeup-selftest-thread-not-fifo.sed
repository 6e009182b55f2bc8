# file: kernel/trace/trace_selftest.c
# step: 08
# tiny: SCHED_CLASS_DL
# tiny cells: arm-nodl
# The wakeup tracers' self-test thread without the deadline class stays
# SCHED_NORMAL: the wakeup and wakeup_rt self-tests see no wakeup to trace.
/^static int trace_wakeup_test_thread(/,/^}$/ s/^\t\tsched_set_fifo(current);$/\t\tsched_set_normal(current, 0);/
