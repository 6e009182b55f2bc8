# file: kernel/sched/deadline.c
# step: 01
# cells: x86_64-smp arm-smp
# Let a deadline task narrow its affinity below its root domain (dl_task_check_affinity() in deadline.c).
/^int dl_task_check_affinity(/,/^}/ s/ret = -EBUSY;/ret = 0;/
