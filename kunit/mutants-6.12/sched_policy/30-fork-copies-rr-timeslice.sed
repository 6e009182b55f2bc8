# file: kernel/sched/sched.h
# step: 10
# tiny cells: x86_64-tiny arm-tiny arm-nodl
# A new task keeps its parent's RR time slice instead of sched_rr_timeslice (init_rt_task()).
/^static inline void init_rt_task(/,/^}$/ { /^\tp->rt\.time_slice\t= sched_rr_timeslice;$/d }
