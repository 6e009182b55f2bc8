# file: kernel/sched/rt.c
# step: 00
# tg_has_rt_tasks(): never see an RT task.
/^static inline int tg_has_rt_tasks(/,/^}/ s/ret |= rt_task(task);/ret |= 0;/
