// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched-setattr: the peer check's scheduling requests, as chrt makes them
 * (Debian's busybox-static has no chrt applet): sched_setscheduler() of
 * itself for "chrt -o 0", "-b 0", "-i 0", "-f 10" and "-r 10" (then back
 * to SCHED_OTHER), the SCHED_DEADLINE request of util-linux's "chrt
 * --deadline --sched-runtime 10000000 --sched-deadline 100000000
 * --sched-period 100000000 0 CMD", and the priority range of each policy,
 * as "chrt -m" shows it. Built without a C library, with the kernel tree's
 * tools/include/nolibc, for the initramfs of sched_tinify/peer.py. One
 * "peer: " line per result.
 */
#include <linux/sched.h>
#include <linux/sched/types.h>

static const char *err_name(long ret)
{
	switch (ret) {
	case 0:
		return "ok";
	case -EINVAL:
		return "EINVAL";
	case -EPERM:
		return "EPERM";
	case -EBUSY:
		return "EBUSY";
	case -ENOSYS:
		return "ENOSYS";
	default:
		return "other error";
	}
}

static const struct {
	const char *name;
	int policy, prio;
} policies[] = {
	{ "SCHED_OTHER", SCHED_NORMAL, 0 },
	{ "SCHED_BATCH", SCHED_BATCH, 0 },
	{ "SCHED_IDLE", SCHED_IDLE, 0 },
	{ "SCHED_FIFO", SCHED_FIFO, 10 },
	{ "SCHED_RR", SCHED_RR, 10 },
	{ "SCHED_DEADLINE", SCHED_DEADLINE, 0 },	/* last: not through chrt -x */
};

int main(void)
{
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_DEADLINE,
		.sched_runtime	= 10000000,
		.sched_deadline	= 100000000,
		.sched_period	= 100000000,
	};
	unsigned int i;
	long min, max;

	/* A system call returns -errno: -22 is -EINVAL. */
	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		min = my_syscall1(__NR_sched_get_priority_min, policies[i].policy);
		max = my_syscall1(__NR_sched_get_priority_max, policies[i].policy);
		printf("peer: priority range %s: min %ld max %ld\n", policies[i].name, min, max);
	}
	/* What "chrt -o 0", "-b 0", "-i 0", "-f 10" and "-r 10" ask for. */
	for (i = 0; i < sizeof(policies) / sizeof(policies[0]) - 1; i++) {
		struct sched_param sp = { .sched_priority = policies[i].prio };
		struct sched_param normal = { 0 };

		printf("peer: sched_setscheduler %s %d: %s, policy now %ld\n",
		       policies[i].name, policies[i].prio,
		       err_name(my_syscall3(__NR_sched_setscheduler, 0, policies[i].policy, &sp)),
		       my_syscall1(__NR_sched_getscheduler, 0));
		my_syscall3(__NR_sched_setscheduler, 0, SCHED_NORMAL, &normal);
	}
	printf("peer: sched_setattr SCHED_DEADLINE 10/100/100 ms: %s\n",
	       err_name(my_syscall3(__NR_sched_setattr, 0, &attr, 0)));
	printf("peer: policy after it: %ld\n", my_syscall1(__NR_sched_getscheduler, 0));
	return 0;
}
