# file: kernel/sched/deadline.c
# step: 00
# Entering SCHED_DEADLINE: admit without accounting the bandwidth.
/^int sched_dl_overflow(/,/^}/ {
	/!__dl_overflow(dl_b, cap, 0, new_bw)) {/,/err = 0;/ s/^\t\t__dl_add(dl_b, new_bw, cpus);/\t\t;/
}
