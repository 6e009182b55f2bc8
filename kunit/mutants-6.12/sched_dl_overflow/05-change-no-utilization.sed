# file: kernel/sched/deadline.c
# step: 00
# Changing parameters: leave the runqueue utilization (this_bw) alone.
/^int sched_dl_overflow(/,/^}/ s/^\t\tdl_change_utilization(p, new_bw);/\t\t;/
