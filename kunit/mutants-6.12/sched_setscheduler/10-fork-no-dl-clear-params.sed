# file: kernel/sched/core.c
# step: 00
# until: 07
# Fork: keep the parent's deadline parameters (copied back after init_dl_entity(), which the fair server shares).
/^static void __sched_fork(/,/^}$/ s/^\tinit_dl_entity(\&p->dl);$/&\n\tp->dl.dl_runtime = current->dl.dl_runtime; p->dl.dl_deadline = current->dl.dl_deadline; p->dl.dl_period = current->dl.dl_period; p->dl.flags = current->dl.flags; p->dl.dl_bw = current->dl.dl_bw; p->dl.dl_density = current->dl.dl_density;/
