# file: kernel/sched/core.c
# step: 00
# cpu_cgroup_can_attach(): let an RT task into a group without RT runtime.
/^static int cpu_cgroup_can_attach(/,/^}/ s/if (!sched_rt_can_attach(css_tg(css), task))/if (0)/
