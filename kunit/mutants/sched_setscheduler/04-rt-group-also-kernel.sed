# file: kernel/sched/core.c
# step: 00
# Apply the user-only permission rules to the kernel's own requests too.
/^static int __sched_setscheduler(/,/^}/ {
	/^change:/,/Re-check policy/ s/^\tif (user) {/\tif (1) {/
}
