# file: kernel/sched/deadline.c
# step: 03
# cells: x86_64-smp arm-smp
# Apply the root-domain rule even with sched_rt_runtime_us = -1 (sched_dl_can_setscheduler()).
/^bool sched_dl_can_setscheduler(/,/^}$/ s/if (dl_bandwidth_enabled()) {/if (true) {/
