# file: kernel/sched/syscalls.c
# step: 00
# tiny cells: arm-nodl arm-nort
# A nice level at RLIMIT_NICE exactly counts as above it.
/^static bool is_nice_reduction(/,/^}$/ s/nice_rlim <= task_rlimit/nice_rlim < task_rlimit/
