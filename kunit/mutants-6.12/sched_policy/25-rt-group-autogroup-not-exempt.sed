# file: kernel/sched/rt.c
# step: 04
# The RT group rule does not exempt autogroups (moved to sched_rt_can_setscheduler()).
/^bool sched_rt_can_setscheduler(/,/^}$/ s/^\t    !task_group_is_autogroup(tg))$/\t    true)/
