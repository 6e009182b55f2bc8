# file: kernel/sched/deadline.c
# step: 06
# Fork: keep the parent's deadline parameters (init_dl_entity()).
/^void init_dl_entity(/,/^}$/ s/^\t__dl_clear_params(dl_se);/\t;/
