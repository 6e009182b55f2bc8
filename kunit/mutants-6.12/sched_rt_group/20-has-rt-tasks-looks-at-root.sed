# file: kernel/sched/rt.c
# step: 00
# tg_has_rt_tasks(): look for RT tasks in the root cgroup, whatever the group.
/^static inline int tg_has_rt_tasks(/,/^}/ s/css_task_iter_start(&tg->css, 0, &it);/css_task_iter_start(\&root_task_group.css, 0, \&it);/
