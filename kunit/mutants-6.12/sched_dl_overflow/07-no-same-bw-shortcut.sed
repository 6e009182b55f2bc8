# file: kernel/sched/deadline.c
# step: 00
# Re-check a task whose bandwidth does not change.
/^int sched_dl_overflow(/,/^}/ s/if (new_bw == p->dl.dl_bw \&\& task_has_dl_policy(p))/if (0 \&\& new_bw == p->dl.dl_bw \&\& task_has_dl_policy(p))/
