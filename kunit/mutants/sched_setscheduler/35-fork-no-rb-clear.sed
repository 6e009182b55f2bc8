# file: kernel/sched/deadline.c
# step: 06
# Fork: keep the parent's deadline rb node (init_dl_entity()).
/^void init_dl_entity(/,/^}$/ s/^\tRB_CLEAR_NODE(&dl_se->rb_node);/\t;/
