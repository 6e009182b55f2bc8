# file: kernel/sched/syscalls.c
# step: 00
# Let a user request claim SCHED_FLAG_SUGOV.
/^int __sched_setscheduler(/,/^}/ {
	/retval = user_check_sched_setscheduler(/,/security_task_setscheduler/ s/if (attr->sched_flags & SCHED_FLAG_SUGOV)/if (0)/
}
