# file: kernel/sched/core.c
# Fork: keep the parent's deadline rb node.
/^static void __sched_fork(/,/^}/ s/^\tRB_CLEAR_NODE(&p->dl.rb_node);/\t;/
