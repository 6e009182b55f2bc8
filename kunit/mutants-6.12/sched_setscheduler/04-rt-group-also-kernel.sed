# file: kernel/sched/syscalls.c
# step: 00
# Apply the user-only permission rules to the kernel's own requests too.
/^int __sched_setscheduler(/,/^}/ {
	/^change:/,/Re-check policy/ s/^\tif (user) {/\tif (1) {/
}
