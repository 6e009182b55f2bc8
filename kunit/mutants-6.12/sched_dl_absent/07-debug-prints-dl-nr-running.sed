# file: kernel/sched/debug.c
# step: 00
# tiny: SCHED_CLASS_DL
# sched/debug: a dl_nr_running counter after the RT runqueue.
/^static void print_cpu(/,/^}$/ s/^\tprint_rt_stats(m, cpu);$/&\n\tSEQ_printf(m, "  .dl_nr_running: 0\\n");/
