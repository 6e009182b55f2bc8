# file: kernel/sched/syscalls.c
# step: 00
# until: 03
# Refuse RT policies in groups that do have RT runtime instead.
/^int __sched_setscheduler(/,/^}/ s/task_group(p)->rt_bandwidth.rt_runtime == 0 &&/task_group(p)->rt_bandwidth.rt_runtime != 0 \&\&/
