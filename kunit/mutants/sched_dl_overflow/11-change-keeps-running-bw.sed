# file: kernel/sched/deadline.c
# step: 00
# dl_change_utilization(): leave a non-contending task in running_bw.
/^static void dl_change_utilization(/,/^}/ {
	/if (p->dl.dl_non_contending) {/,/}/ s/^\t\tsub_running_bw(&p->dl, &rq->dl);/\t\t;/
}
