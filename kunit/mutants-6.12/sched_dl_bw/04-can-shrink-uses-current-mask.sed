# file: kernel/sched/deadline.c
# step: 00
# cells: x86_64-smp arm-smp
# dl_cpuset_cpumask_can_shrink(): weigh the current mask, not the trial one.
/^int dl_cpuset_cpumask_can_shrink(/,/^}/ s/cap = __dl_bw_capacity(trial);/cap = __dl_bw_capacity(cur);/
