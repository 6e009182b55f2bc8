# file: kernel/sched/core.c
# step: 08
# Fork: leave the inactive timer as copied from the parent (a copy after init_dl_task()).
/^static void __sched_fork(/,/^}$/ s/^\tinit_dl_task(p);$/&\n\tp->dl.inactive_timer = current->dl.inactive_timer;/
