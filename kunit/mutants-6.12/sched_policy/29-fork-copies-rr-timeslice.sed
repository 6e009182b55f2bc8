# file: kernel/sched/core.c
# step: 00
# until: 09
# A new task keeps its parent's RR time slice instead of sched_rr_timeslice.
/^static void __sched_fork(/,/^}$/ { /^\tp->rt\.time_slice\t= sched_rr_timeslice;$/d }
