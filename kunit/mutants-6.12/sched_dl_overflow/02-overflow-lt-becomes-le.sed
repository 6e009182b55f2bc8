# file: kernel/sched/deadline.c
# step: 00
# Refuse a total that exactly fills the capacity.
/^__dl_overflow(/,/^}/ s/cap_scale(dl_b->bw, cap) < dl_b->total_bw/cap_scale(dl_b->bw, cap) <= dl_b->total_bw/
