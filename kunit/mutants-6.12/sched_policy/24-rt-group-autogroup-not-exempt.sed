# file: kernel/sched/syscalls.c
# step: 00
# until: 03
# The RT group rule does not exempt autogroups.
/^int __sched_setscheduler(/,/^}$/ { /^\t\t\t\t!task_group_is_autogroup(task_group(p))) {$/ s/!task_group_is_autogroup(task_group(p))/1/ }
