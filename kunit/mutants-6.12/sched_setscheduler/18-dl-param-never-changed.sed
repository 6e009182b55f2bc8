# file: kernel/sched/deadline.c
# step: 00
# A deadline task's new parameters are taken for the old ones.
/^bool dl_param_changed(/,/^}/ s/return true;/return false;/
