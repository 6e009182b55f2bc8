# file: kernel/sched/core.c
# step: 00
# cells: x86_64-smp arm-smp
# An empty cpuset may not shrink.
/^int cpuset_cpumask_can_shrink(/,/^}/ {
	/if (cpumask_empty(cur))/,/return ret;/ s/return ret;/return 0;/
}
