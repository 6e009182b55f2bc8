# file: kernel/sched/debug.c
# tiny: SCHED_DL
# sched/debug: a deadline runqueue header where the RT one belongs.
/^static void print_cpu(/,/^}$/ s/^\tprint_rt_stats(m, cpu);/\tSEQ_printf(m, "dl_rq[%d]:\\n", cpu);/
