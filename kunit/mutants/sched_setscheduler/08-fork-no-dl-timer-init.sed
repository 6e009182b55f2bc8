# file: kernel/sched/core.c
# step: 00
# until: 05
# Fork: leave the replenishment timer as copied from the parent.
/^static void __sched_fork(/,/^}/ s/^\tinit_dl_task_timer(&p->dl);/\t;/
