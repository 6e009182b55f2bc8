# file: kernel/sched/deadline.c
# step: 00
# Entering again: check as if the lingering old bandwidth were gone already.
/^int sched_dl_overflow(/,/^}/ s/!__dl_overflow(dl_b, cap, 0, new_bw)) {/!__dl_overflow(dl_b, cap, p->dl.dl_bw, new_bw)) {/
