# file: kernel/trace/trace_sched_wakeup.c
# step: 21
# tiny: SCHED_CLASS_RT
# tiny cells: arm-nort
# The wakeup_rt tracer registered without the RT class.
/^__init static int init_wakeup_tracer(/,/^}$/ s/^\tif (IS_ENABLED(CONFIG_SCHED_CLASS_RT)) {$/\tif (1) {/
