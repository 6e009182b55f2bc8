# file: kernel/sched/core.c
# step: 00
# until: 07
# Fork: leave the replenishment timer as copied from the parent (a copy after init_dl_entity(), which the fair server shares).
/^static void __sched_fork(/,/^}$/ s/^\tinit_dl_entity(\&p->dl);$/&\n\tp->dl.dl_timer = current->dl.dl_timer;/
