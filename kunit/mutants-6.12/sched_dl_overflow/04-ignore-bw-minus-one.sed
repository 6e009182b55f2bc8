# file: kernel/sched/deadline.c
# step: 00
# Forget that bw == -1 disables admission control.
/^__dl_overflow(/,/^}/ s/return dl_b->bw != -1 \&\&/return 1 \&\&/
