# file: kernel/sched/syscalls.c
# step: 00
# until: 00
# cells: x86_64-smp arm-smp
# Check the affinity of every task, not only of deadline tasks.
/^int dl_task_check_affinity(/,/^}/ s/if (!task_has_dl_policy(p) || !dl_bandwidth_enabled())/if (!dl_bandwidth_enabled())/
