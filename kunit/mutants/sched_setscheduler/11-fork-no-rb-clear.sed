# file: kernel/sched/core.c
# step: 00
# until: 05
# Fork: keep the parent's deadline rb node.
/^static void __sched_fork(/,/^}/ s/^\tRB_CLEAR_NODE(&p->dl.rb_node);/\t;/
