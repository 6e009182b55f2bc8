# file: kernel/sched/core.c
# step: 00
# until: 04
# A deadline task leaving the class while boosted keeps its own entity.
/^static inline void __setscheduler_dl_pi(/,/^}/ s/^\t\t\tp->dl.pi_se = pi_task->dl.pi_se;/\t\t\t;/
