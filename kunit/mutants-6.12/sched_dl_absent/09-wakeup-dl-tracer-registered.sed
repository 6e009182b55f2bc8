# file: kernel/trace/trace_sched_wakeup.c
# step: 08
# tiny: SCHED_CLASS_DL
# tiny cells: arm-nodl
# The wakeup_dl tracer registered without the deadline class.
/^__init static int init_wakeup_tracer(/,/^}$/ s/^\tif (IS_ENABLED(CONFIG_SCHED_CLASS_DL)) {$/\tif (1) {/
