# file: kernel/sched/deadline.c
# step: 00
# __dl_update(): leave extra_bw alone (SMP and UP versions).
/^void __dl_update(/,/^}/ {
	s/^\t\trq->dl.extra_bw += bw;/\t\t(void)rq;/
	s/^\tdl->extra_bw += bw;/\t(void)dl;/
}
