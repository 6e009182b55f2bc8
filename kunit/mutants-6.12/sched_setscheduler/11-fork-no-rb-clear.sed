# file: kernel/sched/core.c
# step: 00
# until: 07
# Fork: keep the parent's deadline rb node (a copy after init_dl_entity(), which the fair server shares).
/^static void __sched_fork(/,/^}$/ s/^\tinit_dl_entity(\&p->dl);$/&\n\tp->dl.rb_node = current->dl.rb_node;/
