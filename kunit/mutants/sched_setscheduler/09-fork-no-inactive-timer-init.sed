# file: kernel/sched/core.c
# step: 00
# until: 05
# Fork: leave the inactive timer as copied from the parent.
/^static void __sched_fork(/,/^}/ s/^\tinit_dl_inactive_task_timer(&p->dl);/\t;/
