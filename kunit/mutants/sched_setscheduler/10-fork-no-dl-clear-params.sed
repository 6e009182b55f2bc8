# file: kernel/sched/core.c
# step: 00
# until: 05
# Fork: keep the parent's deadline parameters.
/^static void __sched_fork(/,/^}/ s/^\t__dl_clear_params(p);/\t;/
