# file: kernel/sched/deadline.c
# step: 00
# Entering again while the old bandwidth lingers: add without removing it.
/^int sched_dl_overflow(/,/^}/ {
	/if (hrtimer_active(&p->dl.inactive_timer))/ { n; s/__dl_sub(dl_b, p->dl.dl_bw, cpus);/;/ }
}
