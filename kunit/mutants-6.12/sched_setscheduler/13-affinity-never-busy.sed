# file: kernel/sched/syscalls.c
# step: 00
# until: 00
# Let a deadline task narrow its affinity below its root domain.
/^int dl_task_check_affinity(/,/^}/ s/^\t\treturn -EBUSY;/\t\treturn 0;/
