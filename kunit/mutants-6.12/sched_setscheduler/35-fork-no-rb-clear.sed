# file: kernel/sched/core.c
# step: 08
# Fork: keep the parent's deadline rb node (a copy after init_dl_task()).
/^static void __sched_fork(/,/^}$/ s/^\tinit_dl_task(p);$/&\n\tp->dl.rb_node = current->dl.rb_node;/
