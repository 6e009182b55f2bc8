# file: kernel/sched/deadline.c
# step: 00
# cells: x86_64-smp arm-smp
# dl_bw_cpus(): count every CPU of the root domain, active or not.
/^static inline int dl_bw_cpus(/,/^}/ s/for_each_cpu_and(i, rd->span, cpu_active_mask)/for_each_cpu(i, rd->span)/
