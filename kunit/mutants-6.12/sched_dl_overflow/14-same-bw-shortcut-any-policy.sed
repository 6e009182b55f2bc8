# file: kernel/sched/deadline.c
# step: 00
# Take the "same bandwidth" shortcut for a task that left SCHED_DEADLINE too.
/^int sched_dl_overflow(/,/^}/ s/if (new_bw == p->dl.dl_bw \&\& task_has_dl_policy(p))/if (new_bw == p->dl.dl_bw)/
