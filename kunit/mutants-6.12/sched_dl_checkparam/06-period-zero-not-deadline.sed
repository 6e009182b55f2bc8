# file: kernel/sched/deadline.c
# step: 00
# Forget that period 0 means period = deadline (keep it 0).
/^bool __checkparam_dl(/,/^}/ {
	/^\tif (!period)$/ { n; s/period = attr->sched_deadline;/period = 0;/ }
}
