# file: kernel/sched/core.c
# Let a deadline task narrow its affinity below its root domain.
/^int dl_task_check_affinity(/,/^}/ s/ret = -EBUSY;/ret = 0;/
