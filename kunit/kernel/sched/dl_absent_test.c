// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for a kernel built without the deadline scheduling class
 * (CONFIG_SCHED_DL=n): every entry point refuses SCHED_DEADLINE cleanly,
 * the other policies are untouched, the deadline sysctls are gone, and
 * priority inheritance between the classes that remain still works.
 *
 * Everything goes through the real entry points: sched_setattr() and
 * sched_setscheduler() (and their _nocheck() kernel forms) on a test
 * kthread, the sched_get_priority_max/min() system calls, the sysctl
 * files of a procfs mounted inside the kernel (attached to no path), and
 * rt_mutex_setprio(), the function the PI chain walk ends in.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/syscalls.h>
#ifdef CONFIG_X86_64
#include <asm/syscall.h>
#endif

#include "sched_test_util.h"

/*
 * A never-woken test kthread per case (stopped by .exit; a case that
 * changes its policy puts SCHED_NORMAL back itself), and a donor for the
 * boost.
 */
struct dla_ctx {
	struct task_struct *p;
	struct task_struct *donor;
	bool boosted;
};

static int dla_init(struct kunit *test)
{
	struct dla_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	ctx->p = sched_test_kthread("dla_test");
	if (IS_ERR(ctx->p))
		return PTR_ERR(ctx->p);
	test->priv = ctx;
	return 0;
}

static void dla_exit(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;

	if (!ctx)
		return;
#ifdef CONFIG_RT_MUTEXES
	if (ctx->boosted) {
		unsigned long flags;

		raw_spin_lock_irqsave(&ctx->p->pi_lock, flags);
		rt_mutex_setprio(ctx->p, NULL);
		raw_spin_unlock_irqrestore(&ctx->p->pi_lock, flags);
	}
#endif
	kthread_stop(ctx->p);
	if (ctx->donor)
		kthread_stop(ctx->donor);
}

/*
 * One request of a policy, by a user (checked) or by the kernel, and the
 * kernel priority an accepted one gives, by hand: MAX_RT_PRIO - 1 -
 * rt_priority for FIFO/RR, DEFAULT_PRIO (120) at nice 0 otherwise.
 */
struct dla_policy_case {
	const char *desc;
	int policy;
	u32 prio;
	bool user;
	int ret;
	int kprio;
};

static const struct dla_policy_case dla_policy_cases[] = {
	{ "SCHED_DEADLINE by a user", SCHED_DEADLINE, 0, true, -EINVAL, 0 },
	{ "SCHED_DEADLINE by the kernel", SCHED_DEADLINE, 0, false, -EINVAL, 0 },
	{ "SCHED_FIFO 1 by a user", SCHED_FIFO, 1, true, 0, 98 },
	{ "SCHED_FIFO 99 by the kernel", SCHED_FIFO, 99, false, 0, 0 },
	{ "SCHED_RR 50 by a user", SCHED_RR, 50, true, 0, 49 },
	{ "SCHED_BATCH by a user", SCHED_BATCH, 0, true, 0, 120 },
	{ "SCHED_IDLE by a user", SCHED_IDLE, 0, true, 0, 120 },
	{ "SCHED_NORMAL by a user", SCHED_NORMAL, 0, true, 0, 120 },
	{ "policy 7 (none) by a user", 7, 0, true, -EINVAL, 0 },
};

SCHED_TEST_PARAMS(dla_policy, dla_policy_cases, dla_policy_case);

/* Would the task still be what dla_init() made? */
static void dla_expect_unchanged(struct kunit *test, struct task_struct *p)
{
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	KUNIT_EXPECT_EQ(test, p->prio, DEFAULT_PRIO);
	KUNIT_EXPECT_EQ(test, p->normal_prio, DEFAULT_PRIO);
	KUNIT_EXPECT_PTR_EQ(test, p->sched_class, &fair_sched_class);
}

/* The class each accepted policy must land in, by hand. */
static const struct sched_class *dla_class_of(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR ? &rt_sched_class :
							    &fair_sched_class;
}

/*
 * What a request of row @c did to @p, which returned @ret: refused and
 * nothing changed, or accepted into the row's class and priority; then
 * back to SCHED_NORMAL.
 */
static void dla_expect_result(struct kunit *test, struct task_struct *p,
			      const struct dla_policy_case *c, int ret)
{
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (c->ret) {
		dla_expect_unchanged(test, p);
		return;
	}
	KUNIT_EXPECT_EQ(test, p->policy, c->policy);
	KUNIT_EXPECT_EQ(test, p->prio, c->kprio);
	KUNIT_EXPECT_PTR_EQ(test, p->sched_class, dla_class_of(c->policy));
	sched_set_normal(p, 0);
	dla_expect_unchanged(test, p);
}

/* sched_setattr(), with valid deadline parameters for SCHED_DEADLINE. */
static void sched_dl_absent_setattr(struct kunit *test)
{
	const struct dla_policy_case *c = test->param_value;
	struct task_struct *p = ((struct dla_ctx *)test->priv)->p;
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= c->policy,
		.sched_priority	= c->prio,
	};
	int ret;

	if (c->policy == SCHED_DEADLINE) {
		attr.sched_runtime = 10 * ST_MS;
		attr.sched_deadline = 100 * ST_MS;
		attr.sched_period = 100 * ST_MS;
	}
	ret = c->user ? sched_setattr(p, &attr) : sched_setattr_nocheck(p, &attr);
	dla_expect_result(test, p, c, ret);
}

/*
 * sched_setscheduler(), the older entry point, same answers. (It cannot
 * pass deadline parameters: a kernel with the class refuses SCHED_DEADLINE
 * here too, in __checkparam_dl(). The rows check that nothing else
 * changed.)
 */
static void sched_dl_absent_setscheduler(struct kunit *test)
{
	const struct dla_policy_case *c = test->param_value;
	struct task_struct *p = ((struct dla_ctx *)test->priv)->p;
	struct sched_param param = { .sched_priority = c->prio };
	int ret;

	ret = c->user ? sched_setscheduler(p, c->policy, &param) :
			sched_setscheduler_nocheck(p, c->policy, &param);
	dla_expect_result(test, p, c, ret);
}

/*
 * The priority range system calls, as user space reaches them. x86_64
 * builds its system calls behind pt_regs wrappers
 * (CONFIG_ARCH_HAS_SYSCALL_WRAPPER): call those through the system call
 * table; 32-bit ARM has the plain sys_*() functions.
 */
#if defined(CONFIG_X86_64)
static long dla_syscall1(unsigned int nr, long arg)
{
	struct pt_regs regs = { .di = arg };

	return sys_call_table[nr](&regs);
}

static long dla_prio_max(int policy)
{
	return dla_syscall1(__NR_sched_get_priority_max, policy);
}

static long dla_prio_min(int policy)
{
	return dla_syscall1(__NR_sched_get_priority_min, policy);
}

#define DLA_HAVE_PRIO_SYSCALLS
#elif !defined(CONFIG_ARCH_HAS_SYSCALL_WRAPPER)
static long dla_prio_max(int policy)
{
	return sys_sched_get_priority_max(policy);
}

static long dla_prio_min(int policy)
{
	return sys_sched_get_priority_min(policy);
}

#define DLA_HAVE_PRIO_SYSCALLS
#endif

struct dla_prio_case {
	const char *desc;
	int policy;
	long max, min;
};

static const struct dla_prio_case dla_prio_cases[] = {
	{ "SCHED_DEADLINE", SCHED_DEADLINE, -EINVAL, -EINVAL },
	{ "SCHED_FIFO", SCHED_FIFO, 99, 1 },
	{ "SCHED_RR", SCHED_RR, 99, 1 },
	{ "SCHED_NORMAL", SCHED_NORMAL, 0, 0 },
	{ "SCHED_BATCH", SCHED_BATCH, 0, 0 },
	{ "SCHED_IDLE", SCHED_IDLE, 0, 0 },
	{ "policy 4 (none)", 4, -EINVAL, -EINVAL },
};

/*
 * One case over the whole table: where the architecture offers no way to
 * call the system calls, the case skips, and says so (a skipped parameter
 * of a parameterised case would print as passed on 6.1).
 */
static void sched_dl_absent_priority_range(struct kunit *test)
{
#ifdef DLA_HAVE_PRIO_SYSCALLS
	const struct dla_prio_case *c;

	for (c = dla_prio_cases; c < dla_prio_cases + ARRAY_SIZE(dla_prio_cases); c++) {
		KUNIT_EXPECT_EQ_MSG(test, dla_prio_max(c->policy), c->max, "max, %s", c->desc);
		KUNIT_EXPECT_EQ_MSG(test, dla_prio_min(c->policy), c->min, "min, %s", c->desc);
	}
#else
	kunit_skip(test, "no known way to call the system calls on this architecture");
#endif
}

/* Which files does /proc/sys/kernel have, read through a procfs mount? */
struct dla_sysctl_case {
	const char *desc;
	const char *file;
	bool present;
};

static const struct dla_sysctl_case dla_sysctl_cases[] = {
	{ "sched_deadline_period_max_us gone", "sched_deadline_period_max_us", false },
	{ "sched_deadline_period_min_us gone", "sched_deadline_period_min_us", false },
	{ "sched_rt_period_us kept", "sched_rt_period_us", true },
	{ "sched_rt_runtime_us kept", "sched_rt_runtime_us", true },
	{ "sched_rr_timeslice_ms kept", "sched_rr_timeslice_ms", true },
};

/* One case over the whole table: it needs /proc/sys (PROC_SYSCTL). */
static void sched_dl_absent_sysctl(struct kunit *test)
{
	struct file_system_type *type;
	const struct dla_sysctl_case *c;
	struct vfsmount *mnt;
	struct file *f;
	char path[64];

	if (!IS_ENABLED(CONFIG_PROC_SYSCTL))
		kunit_skip(test, "no /proc/sys: CONFIG_PROC_SYSCTL is not set");
	type = get_fs_type("proc");
	KUNIT_ASSERT_NOT_NULL_MSG(test, type, "no proc file system");
	mnt = vfs_kern_mount(type, 0, "proc", NULL);
	put_filesystem(type);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "cannot mount proc: %ld", PTR_ERR(mnt));
	for (c = dla_sysctl_cases; c < dla_sysctl_cases + ARRAY_SIZE(dla_sysctl_cases); c++) {
		snprintf(path, sizeof(path), "sys/kernel/%s", c->file);
		f = file_open_root_mnt(mnt, path, O_RDONLY, 0);
		if (c->present)
			KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(f), "%s: %s: %ld", c->desc, path,
					       PTR_ERR(f));
		else
			KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(f), -ENOENT, "%s: %s",
					    c->desc, path);
		/* The test runs in a kthread: release the file now, not later. */
		if (!IS_ERR(f))
			__fput_sync(f);
	}
	kern_unmount(mnt);
}

/*
 * Priority inheritance between the classes that remain: a SCHED_NORMAL
 * task boosted by a SCHED_FIFO donor runs in the RT class at the donor's
 * priority, and back in the fair class when the boost ends. An rt_mutex
 * does this from rt_mutex_adjust_prio(); the kthread cannot take a lock
 * without running, so the case calls what the PI walk ends in, with the
 * donor it would have found.
 */
static void sched_dl_absent_pi_boost(struct kunit *test)
{
#ifdef CONFIG_RT_MUTEXES
	struct dla_ctx *ctx = test->priv;
	struct sched_param fifo10 = { .sched_priority = 10 };
	struct task_struct *p = ctx->p, *donor;
	unsigned long flags;

	donor = sched_test_kthread("dla_donor");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, donor);
	ctx->donor = donor;
	KUNIT_ASSERT_EQ(test, sched_setscheduler_nocheck(donor, SCHED_FIFO, &fifo10), 0);
	/* MAX_RT_PRIO - 1 - 10, by hand: the kernel's prio of FIFO 10. */
	KUNIT_ASSERT_EQ(test, donor->prio, 89);

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	rt_mutex_setprio(p, donor);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	ctx->boosted = true;
	KUNIT_EXPECT_PTR_EQ(test, p->pi_top_task, donor);
	KUNIT_EXPECT_EQ(test, p->prio, 89);
	KUNIT_EXPECT_PTR_EQ(test, p->sched_class, &rt_sched_class);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	/*
	 * As if it had run boosted: back to fair, rt_mutex_setprio() resets
	 * the RR timeout. (ENQUEUE_HEAD, for an RT boost of a queued task,
	 * cannot be seen on a task that is never queued.)
	 */
	p->rt.timeout = 5;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	rt_mutex_setprio(p, NULL);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	ctx->boosted = false;
	KUNIT_EXPECT_NULL(test, p->pi_top_task);
	KUNIT_EXPECT_EQ(test, p->rt.timeout, 0UL);
	dla_expect_unchanged(test, p);
#else
	kunit_skip(test, "needs CONFIG_RT_MUTEXES");
#endif
}

static struct kunit_case dla_test_cases[] = {
	KUNIT_CASE_PARAM(sched_dl_absent_setattr, dla_policy_gen_params),
	KUNIT_CASE_PARAM(sched_dl_absent_setscheduler, dla_policy_gen_params),
	KUNIT_CASE(sched_dl_absent_priority_range),
	KUNIT_CASE(sched_dl_absent_sysctl),
	KUNIT_CASE(sched_dl_absent_pi_boost),
	{}
};

static struct kunit_suite dla_test_suite = {
	.name = "sched_dl_absent",
	.init = dla_init,
	.exit = dla_exit,
	.test_cases = dla_test_cases,
};

kunit_test_suite(dla_test_suite);
