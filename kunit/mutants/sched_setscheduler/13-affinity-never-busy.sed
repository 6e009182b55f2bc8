# file: kernel/sched/core.c
# step: 00
# cells: x86_64-smp arm-smp
# until: 00
# Let a deadline task narrow its affinity below its root domain.
/^int dl_task_check_affinity(/,/^}/ s/ret = -EBUSY;/ret = 0;/
