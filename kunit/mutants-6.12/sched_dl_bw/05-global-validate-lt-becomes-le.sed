# file: kernel/sched/deadline.c
# step: 00
# Refuse a global limit equal to what a domain has admitted.
/^int sched_dl_global_validate(/,/^}/ s/if (new_bw \* cpus < dl_b->total_bw)/if (new_bw * cpus <= dl_b->total_bw)/
