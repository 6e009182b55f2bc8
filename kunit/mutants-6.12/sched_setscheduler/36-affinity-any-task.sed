# file: kernel/sched/deadline.c
# step: 01
# cells: x86_64-smp arm-smp
# Check the affinity of every task, not only of deadline tasks (dl_task_check_affinity() in deadline.c).
/^int dl_task_check_affinity(/,/^}/ s/if (!task_has_dl_policy(p) || !dl_bandwidth_enabled())/if (!dl_bandwidth_enabled())/
