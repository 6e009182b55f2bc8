// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for a kernel built without the deadline scheduling class
 * (CONFIG_SCHED_CLASS_DL=n): every entry point refuses SCHED_DEADLINE cleanly,
 * the other policies are untouched, the deadline sysctls are gone, and
 * priority inheritance between the classes that remain still works.
 *
 * Everything goes through the real entry points: sched_setattr() and
 * sched_setscheduler() (and their _nocheck() kernel forms) on a test
 * kthread, the sched_getattr() system call (the priority range system
 * calls are sched_policy's), the sysctl files and /proc/PID/sched of a
 * procfs mounted inside the kernel (attached to no path), the scheduler's
 * debugfs file, and rt_mutex_setprio(), the function the PI chain walk
 * ends in.
 */
#include <linux/vmalloc.h>

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

static void dla_cleanup(struct kunit *test)
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

static void dla_exit(struct kunit *test)
{
	dla_cleanup(test);
	sched_test_global_kept(test);
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
#ifdef SCHED_EXT
	/* The kernels the suites build in have no sched_ext class. */
	{ "SCHED_EXT, not built, by a user", SCHED_EXT, 0, true, -EINVAL, 0 },
#else
	{ "policy 7 (none) by a user", 7, 0, true, -EINVAL, 0 },
#endif
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
	const struct dla_sysctl_case *c;
	struct vfsmount *mnt;
	struct file *f;
	char path[64];

	if (!IS_ENABLED(CONFIG_PROC_SYSCTL))
		kunit_skip(test, "no /proc/sys: CONFIG_PROC_SYSCTL is not set");
	mnt = sched_test_mount("proc");
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
 * A policy set with sched_setattr() and what sched_getattr() must give
 * back, by hand: the RT priority for FIFO/RR, the nice value for
 * NORMAL/BATCH, and for SCHED_IDLE nice 0 whatever was asked (6.1 keeps
 * the nice value only for the fair policies, fair_policy()); the
 * reset-on-fork flag as set; no deadline parameters, ever.
 */
struct dla_getattr_case {
	const char *desc;
	int policy;
	u32 prio;
	int nice;
	u64 flags;
	u32 want_prio;
	int want_nice;
};

static const struct dla_getattr_case dla_getattr_cases[] = {
	{ "SCHED_FIFO 1, reset on fork", SCHED_FIFO, 1, 0, SCHED_FLAG_RESET_ON_FORK, 1, 0 },
	{ "SCHED_RR 50", SCHED_RR, 50, 0, 0, 50, 0 },
	{ "SCHED_NORMAL nice -5", SCHED_NORMAL, 0, -5, 0, 0, -5 },
	{ "SCHED_BATCH nice 19", SCHED_BATCH, 0, 19, 0, 0, 19 },
	{ "SCHED_IDLE asked nice 7", SCHED_IDLE, 0, 7, 0, 0, 0 },
};

/*
 * The utilization clamps are reported only with CONFIG_UCLAMP_TASK, which
 * needs schedutil, so SMP, so the deadline class: here they are 0.
 */
#ifdef CONFIG_UCLAMP_TASK
#error "sched_dl_absent_getattr expects no utilization clamps without the deadline class"
#endif

/* A fair task reports its slice on 6.12 (sched_test_fair_slice()). */
static void dla_expect_no_deadline(struct kunit *test, const struct sched_attr *a,
				   const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, a->sched_runtime,
			    rt_policy(a->sched_policy) ? 0ULL : sched_test_fair_slice(),
			    "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->sched_deadline, 0ULL, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, a->sched_period, 0ULL, "%s", what);
}

/* Tasks of the system looked at, at most (a kunit.py kernel has ~50). */
#define DLA_MAX_TASKS 512

/*
 * One case over the table, then over every task of the system: where the
 * architecture offers no way to call the system call, it skips.
 */
static void sched_dl_absent_getattr(struct kunit *test)
{
#ifdef SCHED_TEST_HAVE_SYSCALLS
	struct task_struct *p = ((struct dla_ctx *)test->priv)->p, *g, *t;
	const struct dla_getattr_case *c;
	struct sched_attr attr, got;
	struct sched_test_user u;
	const char *d;
	pid_t *pids;
	int *policies;
	int i, n = 0, seen = 0;
	long ret;

	/* sched_policy_attr_syscalls checks that they are gone. */
	if (!IS_ENABLED(CONFIG_SCHED_ATTR_SYSCALLS))
		kunit_skip(test, "no sched_getattr() system call (SCHED_ATTR_SYSCALLS=n)");
	pids = kunit_kcalloc(test, DLA_MAX_TASKS, sizeof(*pids), GFP_KERNEL);
	policies = kunit_kcalloc(test, DLA_MAX_TASKS, sizeof(*policies), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pids);
	KUNIT_ASSERT_NOT_NULL(test, policies);
	KUNIT_ASSERT_EQ(test, sched_test_user_map(&u, PAGE_SIZE), 0);

	for (c = dla_getattr_cases; c < dla_getattr_cases + ARRAY_SIZE(dla_getattr_cases); c++) {
		d = c->desc;
		attr = (struct sched_attr) {
			.size		= sizeof(attr),
			.sched_policy	= c->policy,
			.sched_flags	= c->flags,
			.sched_nice	= c->nice,
			.sched_priority	= c->prio,
		};
		ret = sched_setattr_nocheck(p, &attr);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0L, "%s", d);
		if (ret)
			continue;
		ret = sched_test_getattr_user(&u, task_pid_vnr(p), &got);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0L, "%s", d);
		if (!ret) {
			KUNIT_EXPECT_EQ_MSG(test, got.size, (u32)SCHED_ATTR_SIZE_VER1, "%s", d);
			KUNIT_EXPECT_EQ_MSG(test, got.sched_policy, (u32)c->policy, "%s", d);
			KUNIT_EXPECT_EQ_MSG(test, got.sched_flags, c->flags, "%s", d);
			KUNIT_EXPECT_EQ_MSG(test, got.sched_priority, c->want_prio, "%s", d);
			KUNIT_EXPECT_EQ_MSG(test, got.sched_nice, c->want_nice, "%s", d);
			KUNIT_EXPECT_EQ_MSG(test, got.sched_util_min, 0U, "%s", d);
			KUNIT_EXPECT_EQ_MSG(test, got.sched_util_max, 0U, "%s", d);
			dla_expect_no_deadline(test, &got, d);
		}
		sched_set_normal(p, 0);
	}
	dla_expect_unchanged(test, p);

	/* Every task: its own policy, no deadline parameters. */
	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (n < DLA_MAX_TASKS) {
			pids[n] = task_pid_vnr(t);
			policies[n++] = READ_ONCE(t->policy);
		}
	}
	rcu_read_unlock();
	for (i = 0; i < n; i++) {
		/* 0 would ask for the caller: a task being unhashed has that pid. */
		if (!pids[i])
			continue;
		ret = sched_test_getattr_user(&u, pids[i], &got);
		if (ret == -ESRCH)	/* gone since */
			continue;
		KUNIT_EXPECT_EQ_MSG(test, ret, 0L, "pid %d", pids[i]);
		if (ret)
			continue;
		seen++;
		KUNIT_EXPECT_EQ_MSG(test, got.sched_policy, (u32)policies[i], "pid %d", pids[i]);
		dla_expect_no_deadline(test, &got, "a task of the system");
	}
	KUNIT_EXPECT_GT(test, seen, 1);
	sched_test_user_unmap(&u);
#else
	kunit_skip(test, "no known way to call the system calls on this architecture");
#endif
}

/*
 * The scheduler's debug output: /proc/PID/sched of a SCHED_FIFO task
 * (policy and priority, no deadline fields) and the debugfs file
 * sched/debug (an rt_rq, no dl_rq); on 6.12, no sched/fair_server/. Each
 * needs its configuration.
 */
#define DLA_PROC_BUF (4 * PAGE_SIZE)
#define DLA_DEBUG_BUF (256 * 1024)

static void sched_dl_absent_proc_sched(struct kunit *test)
{
	struct task_struct *p = ((struct dla_ctx *)test->priv)->p;
	struct sched_param fifo10 = { .sched_priority = 10 };
	struct vfsmount *mnt;
	struct sched_test_user u;
	char path[32];
	ssize_t len;
	char *buf;

	if (!IS_ENABLED(CONFIG_SCHED_DEBUG) || !IS_ENABLED(CONFIG_PROC_FS))
		kunit_skip(test, "no /proc/PID/sched: needs CONFIG_SCHED_DEBUG and CONFIG_PROC_FS");
	buf = kunit_kmalloc(test, DLA_PROC_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	mnt = sched_test_mount("proc");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "cannot mount proc: %ld", PTR_ERR(mnt));
	if (sched_test_user_map(&u, DLA_PROC_BUF)) {
		kern_unmount(mnt);
		KUNIT_FAIL(test, "no user memory");
		return;
	}
	KUNIT_EXPECT_EQ(test, sched_setscheduler_nocheck(p, SCHED_FIFO, &fifo10), 0);
	snprintf(path, sizeof(path), "%d/sched", task_pid_nr(p));
	len = sched_test_read(mnt, path, &u, buf);
	sched_set_normal(p, 0);
	sched_test_user_unmap(&u);
	kern_unmount(mnt);
	KUNIT_ASSERT_GT_MSG(test, len, (ssize_t)0, "cannot read /proc/%s", path);
	KUNIT_EXPECT_EQ(test, sched_test_field(buf, "policy"), (long)SCHED_FIFO);
	/* MAX_RT_PRIO - 1 - 10, by hand. */
	KUNIT_EXPECT_EQ(test, sched_test_field(buf, "prio"), 89L);
	KUNIT_EXPECT_NULL_MSG(test, strstr(buf, "dl."), "deadline fields in:\n%s", buf);
	dla_expect_unchanged(test, p);
}

static void sched_dl_absent_debugfs_sched(struct kunit *test)
{
	struct vfsmount *mnt;
	struct sched_test_user u;
	ssize_t len;
	char *buf;

	if (!IS_ENABLED(CONFIG_SCHED_DEBUG) || !IS_ENABLED(CONFIG_DEBUG_FS))
		kunit_skip(test, "no sched/debug: needs CONFIG_SCHED_DEBUG and CONFIG_DEBUG_FS");
	mnt = sched_test_mount("debugfs");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "cannot mount debugfs: %ld", PTR_ERR(mnt));
	buf = vmalloc(DLA_DEBUG_BUF);
	if (!buf || sched_test_user_map(&u, DLA_DEBUG_BUF)) {
		vfree(buf);
		kern_unmount(mnt);
		KUNIT_FAIL(test, "no memory");
		return;
	}
#ifdef ST_KERNEL_FAIR_SERVER
	/* The fair server goes with the class, and its files with it. */
	KUNIT_EXPECT_EQ(test, sched_test_read(mnt, "sched/fair_server/cpu0/runtime", &u, buf),
			(ssize_t)-ENOENT);
#endif
	len = sched_test_read(mnt, "sched/debug", &u, buf);
	sched_test_user_unmap(&u);
	kern_unmount(mnt);
	KUNIT_EXPECT_GT_MSG(test, len, (ssize_t)0, "cannot read sched/debug");
	KUNIT_EXPECT_LT_MSG(test, len, (ssize_t)DLA_DEBUG_BUF - 1, "sched/debug cut short");
	if (len > 0) {
		KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "\nrt_rq[0]:"));
		KUNIT_EXPECT_NULL(test, strstr(buf, "dl_rq["));
		KUNIT_EXPECT_NULL(test, strstr(buf, "dl_nr_running"));
	}
	vfree(buf);
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
	 * the RLIMIT_RTTIME account. (ENQUEUE_HEAD, for an RT boost of a
	 * queued task, cannot be seen on a task that is never queued.)
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
	KUNIT_CASE(sched_dl_absent_getattr),
	KUNIT_CASE(sched_dl_absent_sysctl),
	KUNIT_CASE(sched_dl_absent_proc_sched),
	KUNIT_CASE(sched_dl_absent_debugfs_sched),
	KUNIT_CASE(sched_dl_absent_pi_boost),
	{}
};

static struct kunit_suite dla_test_suite = {
	.name = "sched_dl_absent",
	.suite_init = sched_test_global_suite_init,
	.init = dla_init,
	.exit = dla_exit,
	.test_cases = dla_test_cases,
};

kunit_test_suite(dla_test_suite);
