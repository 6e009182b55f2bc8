# file: kernel/sched/deadline.c
# step: 01
# Let a deadline task narrow its affinity below its root domain (dl_task_check_affinity() in deadline.c).
/^int dl_task_check_affinity(/,/^}/ s/^\t\treturn -EBUSY;/\t\treturn 0;/
