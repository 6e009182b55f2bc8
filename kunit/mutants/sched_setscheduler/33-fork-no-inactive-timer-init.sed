# file: kernel/sched/deadline.c
# step: 06
# Fork: leave the inactive timer as copied from the parent (init_dl_entity()).
/^void init_dl_entity(/,/^}$/ s/^\tinit_dl_inactive_task_timer(dl_se);/\t;/
