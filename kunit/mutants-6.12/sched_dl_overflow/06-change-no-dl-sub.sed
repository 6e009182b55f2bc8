# file: kernel/sched/deadline.c
# step: 00
# Changing parameters: add the new bandwidth without removing the old.
/^int sched_dl_overflow(/,/^}/ {
	/!__dl_overflow(dl_b, cap, p->dl.dl_bw, new_bw)) {/,/err = 0;/ s/^\t\t__dl_sub(dl_b, p->dl.dl_bw, cpus);/\t\t;/
}
