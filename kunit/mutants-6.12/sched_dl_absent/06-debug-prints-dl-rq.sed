# file: kernel/sched/debug.c
# step: 00
# tiny: SCHED_CLASS_DL
# sched/debug: a deadline runqueue header after the RT one.
/^static void print_cpu(/,/^}$/ s/^\tprint_rt_stats(m, cpu);$/&\n\tSEQ_printf(m, "dl_rq[%d]:\\n", cpu);/
