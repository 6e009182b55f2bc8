// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for a kernel built without the realtime scheduling class
 * (CONFIG_SCHED_CLASS_RT=n, and so CONFIG_SCHED_CLASS_DL=n): every entry
 * point refuses SCHED_FIFO and SCHED_RR with -EINVAL, the kernel's
 * _nocheck() ones included, sched_set_fifo() and sched_set_fifo_low()
 * give SCHED_NORMAL at nice -20 instead (from any nice level; the kernel
 * says once when it replaces one), rcutree.kthread_prio is limited to 0,
 * the RT sysctls and debug output are gone, no task of the system is a
 * realtime one, and priority inheritance between fair tasks still works.
 *
 * Everything goes through the real entry points: sched_setattr() and
 * sched_setscheduler() (and their _nocheck() kernel forms),
 * sched_set_fifo() and sched_set_fifo_low() on a test kthread, the
 * sched_getattr() system call (the priority range system calls are
 * sched_policy's), the sysctl files and /proc/PID/sched of a procfs
 * mounted inside the kernel (attached to no path), the scheduler's
 * debugfs file, and rt_mutex_setprio(), the function the PI chain walk
 * ends in. The
 * expected values are worked out by hand: prio = NICE_TO_PRIO(nice) =
 * 120 + nice for every policy that remains.
 */
#include <linux/init.h>
#include <linux/vmalloc.h>

#include "sched_test_util.h"
#ifdef CONFIG_TREE_RCU
#include "../rcu/rcu.h"
#endif

/* prio 100: NICE_TO_PRIO(-20), sched_set_fifo()'s fallback, by hand. */
#define RTA_FALLBACK_PRIO	100

/*
 * A never-woken test kthread per case (stopped by .exit; a case that
 * changes its policy puts nice 0 SCHED_NORMAL back itself), and a donor
 * for the boost cases.
 */
struct rta_ctx {
	struct task_struct *p;
	struct task_struct *donor;
	bool boosted;
};

static int rta_init(struct kunit *test)
{
	struct rta_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	ctx->p = sched_test_kthread("rta_test");
	if (IS_ERR(ctx->p))
		return PTR_ERR(ctx->p);
	test->priv = ctx;
	return 0;
}

static void rta_cleanup(struct kunit *test)
{
	struct rta_ctx *ctx = test->priv;

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

static void rta_exit(struct kunit *test)
{
	rta_cleanup(test);
	sched_test_global_kept(test);
}

/* Would the task still be what rta_init() made? */
static void rta_expect_unchanged(struct kunit *test, struct task_struct *p)
{
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	KUNIT_EXPECT_EQ(test, p->static_prio, DEFAULT_PRIO);
	KUNIT_EXPECT_EQ(test, p->prio, DEFAULT_PRIO);
	KUNIT_EXPECT_EQ(test, p->normal_prio, DEFAULT_PRIO);
	KUNIT_EXPECT_EQ(test, p->rt_priority, 0U);
	KUNIT_EXPECT_FALSE(test, p->sched_reset_on_fork);
	KUNIT_EXPECT_PTR_EQ(test, p->sched_class, &fair_sched_class);
}

/*
 * One request of a policy, by a user (checked) or by the kernel, and what
 * an accepted one gives, by hand: the policy it runs under and its kernel
 * priority. A request for SCHED_FIFO or SCHED_RR is refused whoever makes
 * it, with a valid priority (1..99) or not.
 */
struct rta_policy_case {
	const char *desc;
	int policy;
	u32 prio;
	bool user;
	int ret;
	int got_policy;
	int kprio;
};

static const struct rta_policy_case rta_policy_cases[] = {
	{ "SCHED_FIFO 1 by a user", SCHED_FIFO, 1, true, -EINVAL },
	{ "SCHED_FIFO 99 by a user", SCHED_FIFO, 99, true, -EINVAL },
	{ "SCHED_RR 50 by a user", SCHED_RR, 50, true, -EINVAL },
	{ "SCHED_FIFO 1 by the kernel", SCHED_FIFO, 1, false, -EINVAL },
	{ "SCHED_FIFO 99 by the kernel", SCHED_FIFO, 99, false, -EINVAL },
	{ "SCHED_RR 50 by the kernel", SCHED_RR, 50, false, -EINVAL },
	{ "SCHED_FIFO 0 by the kernel", SCHED_FIFO, 0, false, -EINVAL },
	{ "SCHED_RR 100 by the kernel", SCHED_RR, 100, false, -EINVAL },
	{ "SCHED_DEADLINE by a user", SCHED_DEADLINE, 0, true, -EINVAL },
	{ "SCHED_DEADLINE by the kernel", SCHED_DEADLINE, 0, false, -EINVAL },
	{ "SCHED_NORMAL 1 by the kernel", SCHED_NORMAL, 1, false, -EINVAL },
	{ "SCHED_BATCH by a user", SCHED_BATCH, 0, true, 0, SCHED_BATCH, 120 },
	{ "SCHED_IDLE by a user", SCHED_IDLE, 0, true, 0, SCHED_IDLE, 120 },
	{ "SCHED_NORMAL by a user", SCHED_NORMAL, 0, true, 0, SCHED_NORMAL, 120 },
#ifdef SCHED_EXT
	/* The kernels the suites build in have no sched_ext class. */
	{ "SCHED_EXT, not built, by the kernel", SCHED_EXT, 1, false, -EINVAL },
#else
	{ "policy 7 (none) by the kernel", 7, 1, false, -EINVAL },
#endif
};

SCHED_TEST_PARAMS(rta_policy, rta_policy_cases, rta_policy_case);

/*
 * What a request of row @c did to @p, which returned @ret: refused and
 * nothing changed, or accepted into the fair class (the only one left
 * for a task) under the row's policy and priority; then back to nice 0
 * SCHED_NORMAL.
 */
static void rta_expect_result(struct kunit *test, struct task_struct *p,
			      const struct rta_policy_case *c, int ret)
{
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (c->ret) {
		rta_expect_unchanged(test, p);
		return;
	}
	KUNIT_EXPECT_EQ(test, p->policy, c->got_policy);
	KUNIT_EXPECT_EQ(test, p->static_prio, c->kprio);
	KUNIT_EXPECT_EQ(test, p->normal_prio, c->kprio);
	KUNIT_EXPECT_EQ(test, p->prio, c->kprio);
	KUNIT_EXPECT_EQ(test, p->rt_priority, 0U);
	KUNIT_EXPECT_PTR_EQ(test, p->sched_class, &fair_sched_class);
	sched_set_normal(p, 0);
	rta_expect_unchanged(test, p);
}

/* sched_setattr(), with valid deadline parameters for SCHED_DEADLINE. */
static void sched_rt_absent_setattr(struct kunit *test)
{
	const struct rta_policy_case *c = test->param_value;
	struct task_struct *p = ((struct rta_ctx *)test->priv)->p;
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
	rta_expect_result(test, p, c, ret);
}

/* sched_setscheduler(), the older entry point, same answers. */
static void sched_rt_absent_setscheduler(struct kunit *test)
{
	const struct rta_policy_case *c = test->param_value;
	struct task_struct *p = ((struct rta_ctx *)test->priv)->p;
	struct sched_param param = { .sched_priority = c->prio };
	int ret;

	ret = c->user ? sched_setscheduler(p, c->policy, &param) :
			sched_setscheduler_nocheck(p, c->policy, &param);
	rta_expect_result(test, p, c, ret);
}

/* Is @p at the fallback: SCHED_NORMAL, nice -20, in the fair class? */
static void rta_expect_fallback(struct kunit *test, struct task_struct *p, const char *how)
{
	KUNIT_EXPECT_EQ_MSG(test, p->policy, SCHED_NORMAL, "%s", how);
	KUNIT_EXPECT_EQ_MSG(test, task_nice(p), -20, "%s", how);
	KUNIT_EXPECT_EQ_MSG(test, p->static_prio, RTA_FALLBACK_PRIO, "%s", how);
	KUNIT_EXPECT_EQ_MSG(test, p->prio, RTA_FALLBACK_PRIO, "%s", how);
	KUNIT_EXPECT_EQ_MSG(test, p->rt_priority, 0U, "%s", how);
	KUNIT_EXPECT_PTR_EQ_MSG(test, p->sched_class, &fair_sched_class, "%s", how);
	/* The weight of nice -20, sched_prio_to_weight[0]. */
	KUNIT_EXPECT_EQ_MSG(test, p->se.load.weight,
			    (unsigned long)scale_load(88761), "%s", how);
}

/*
 * The kernel's helpers: sched_set_fifo() and sched_set_fifo_low() give the
 * fallback (they WARN when their request fails: the tiny cells' console
 * check sees that), twice in a row too (a task already at the fallback);
 * a direct SCHED_FIFO request with reset-on-fork is refused, and changes
 * neither the nice level nor the flag.
 */
static void sched_rt_absent_set_fifo(struct kunit *test)
{
	struct task_struct *p = ((struct rta_ctx *)test->priv)->p;
	struct sched_param fifo50 = { .sched_priority = 50 };

	sched_set_fifo(p);
	rta_expect_fallback(test, p, "sched_set_fifo()");
	sched_set_fifo(p);
	rta_expect_fallback(test, p, "sched_set_fifo() again");
	KUNIT_EXPECT_FALSE(test, p->sched_reset_on_fork);
	sched_set_normal(p, 0);
	rta_expect_unchanged(test, p);

	sched_set_fifo_low(p);
	rta_expect_fallback(test, p, "sched_set_fifo_low()");
	sched_set_normal(p, 0);
	rta_expect_unchanged(test, p);

	KUNIT_EXPECT_EQ(test, sched_setscheduler_nocheck(p, SCHED_FIFO | SCHED_RESET_ON_FORK,
							 &fifo50), -EINVAL);
	rta_expect_unchanged(test, p);
}

/*
 * The fallback from any nice level and policy: nice -20, SCHED_NORMAL,
 * positive levels included (a thread that asks to run ahead of normal work
 * must not stay behind it). A level other than 0 and -20 is lost, as the
 * task has no SCHED_FIFO to keep it for: the kernel says so once, naming
 * the task (the tiny cells' console check wants the first such line, this
 * table's nice 1 row's). Weights: sched_prio_to_weight[0], by hand.
 */
struct rta_nice_case {
	const char *desc;
	int policy;
	int nice;
	bool low;
};

static const struct rta_nice_case rta_nice_cases[] = {
	{ "nice 0, sched_set_fifo()", SCHED_NORMAL, 0, false },
	{ "nice 0, sched_set_fifo_low()", SCHED_NORMAL, 0, true },
	{ "nice 1, sched_set_fifo(): replaced, said once", SCHED_NORMAL, 1, false },
	{ "nice -1, sched_set_fifo_low(): replaced", SCHED_NORMAL, -1, true },
	{ "nice 5, sched_set_fifo(): replaced", SCHED_NORMAL, 5, false },
	{ "nice -5, sched_set_fifo(): replaced", SCHED_NORMAL, -5, false },
	{ "nice 19, sched_set_fifo_low(): replaced", SCHED_NORMAL, 19, true },
	{ "nice -20, sched_set_fifo(): kept", SCHED_NORMAL, -20, false },
	{ "SCHED_BATCH nice 3, sched_set_fifo(): SCHED_NORMAL", SCHED_BATCH, 3, false },
	{ "SCHED_IDLE nice 0, sched_set_fifo_low(): SCHED_NORMAL", SCHED_IDLE, 0, true },
};

SCHED_TEST_PARAMS(rta_nice, rta_nice_cases, rta_nice_case);

static void sched_rt_absent_set_fifo_nice(struct kunit *test)
{
	const struct rta_nice_case *c = test->param_value;
	struct task_struct *p = ((struct rta_ctx *)test->priv)->p;
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= c->policy,
		.sched_nice	= c->nice,
	};

	KUNIT_ASSERT_EQ(test, sched_setattr_nocheck(p, &attr), 0);
	KUNIT_ASSERT_EQ(test, task_nice(p), c->nice);
	if (c->low)
		sched_set_fifo_low(p);
	else
		sched_set_fifo(p);
	rta_expect_fallback(test, p, c->desc);
	sched_set_normal(p, 0);
	rta_expect_unchanged(test, p);
}

/*
 * sched_setattr_nocheck() of SCHED_RR with SCHED_FLAG_KEEP_PARAMS, which
 * with the class changes the policy only: refused like any SCHED_RR
 * request, and nothing changes.
 */
static void sched_rt_absent_setattr_keep_params(struct kunit *test)
{
	struct task_struct *p = ((struct rta_ctx *)test->priv)->p;
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_RR,
		.sched_priority	= 10,
		.sched_flags	= SCHED_FLAG_KEEP_PARAMS,
	};

	KUNIT_EXPECT_EQ(test, sched_setattr_nocheck(p, &attr), -EINVAL);
	rta_expect_unchanged(test, p);
}

/*
 * The kernel's own SCHED_FIFO request made by a running task for itself,
 * as threaded interrupt handlers make it (sched_set_fifo(current)): a
 * kthread that is queued and running gets the fallback, with its weight.
 */
struct rta_self {
	struct completion done;
	int policy, nice;
	unsigned long weight;
};

static int rta_self_fifo_fn(void *data)
{
	struct rta_self *s = data;

	sched_set_fifo(current);
	s->policy = current->policy;
	s->nice = task_nice(current);
	s->weight = current->se.load.weight;
	complete(&s->done);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static void sched_rt_absent_set_fifo_running(struct kunit *test)
{
	struct rta_self s = { .policy = -1 };
	struct task_struct *t;

	init_completion(&s.done);
	t = kthread_run(rta_self_fifo_fn, &s, "rta_self");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&s.done);
	KUNIT_EXPECT_EQ(test, s.policy, SCHED_NORMAL);
	KUNIT_EXPECT_EQ(test, s.nice, -20);
	/* sched_prio_to_weight[0], the weight of nice -20. */
	KUNIT_EXPECT_EQ(test, s.weight, (unsigned long)scale_load(88761));
	kthread_stop(t);
}

/*
 * rcutree.kthread_prio asks for SCHED_FIFO RCU kthreads, which a kernel
 * without the class cannot give: it is limited to 0, the value with which
 * RCU asks for no SCHED_FIFO and rcutorture skips its boost test. A cell
 * that has tree RCU boots with rcutree.kthread_prio=5 (arm-nort's
 * CONFIG_CMDLINE): a kernel that kept the 5 reports it here. Without the
 * parameter on the command line there is nothing to see: it skips.
 */
static void sched_rt_absent_rcu_kthread_prio(struct kunit *test)
{
#ifdef CONFIG_TREE_RCU
	if (!strstr(saved_command_line, "rcutree.kthread_prio="))
		kunit_skip(test, "booted without rcutree.kthread_prio=");
	KUNIT_EXPECT_EQ(test, rcu_get_gp_kthreads_prio(), 0);
#else
	kunit_skip(test, "no rcutree.kthread_prio: needs CONFIG_TREE_RCU");
#endif
}

/*
 * Which files does /proc/sys/kernel have? The RT and deadline ones are
 * gone; ostype (always there with PROC_SYSCTL) shows that the look-up
 * itself works. (rt.c and deadline.c register the sched ones, and go at
 * compile time: no mutant can bring them back. The rows pin the
 * interface: a later change that moved them elsewhere would show here.)
 */
struct rta_sysctl_case {
	const char *file;
	bool present;
};

static const struct rta_sysctl_case rta_sysctl_cases[] = {
	{ "sched_rt_period_us", false },
	{ "sched_rt_runtime_us", false },
	{ "sched_rr_timeslice_ms", false },
	{ "sched_deadline_period_max_us", false },
	{ "sched_deadline_period_min_us", false },
	{ "ostype", true },
};

/* One case over the whole table: it needs /proc/sys (PROC_SYSCTL). */
static void sched_rt_absent_sysctl(struct kunit *test)
{
	const struct rta_sysctl_case *c;
	struct vfsmount *mnt;
	struct file *f;
	char path[64];

	if (!IS_ENABLED(CONFIG_PROC_SYSCTL))
		kunit_skip(test, "no /proc/sys: CONFIG_PROC_SYSCTL is not set");
	mnt = sched_test_mount("proc");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "cannot mount proc: %ld", PTR_ERR(mnt));
	for (c = rta_sysctl_cases; c < rta_sysctl_cases + ARRAY_SIZE(rta_sysctl_cases); c++) {
		snprintf(path, sizeof(path), "sys/kernel/%s", c->file);
		f = file_open_root_mnt(mnt, path, O_RDONLY, 0);
		if (c->present)
			KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(f), "%s: %ld", path, PTR_ERR(f));
		else
			KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(f), -ENOENT, "%s", path);
		/* The test runs in a kthread: release the file now, not later. */
		if (!IS_ERR(f))
			__fput_sync(f);
	}
	kern_unmount(mnt);
}

/* Tasks of the system looked at, at most (a kunit.py kernel has ~50). */
#define RTA_MAX_TASKS 512

/*
 * sched_getattr() as user space sees it: a thread that sched_set_fifo()
 * gave the fallback, then reset-on-fork by a SCHED_NORMAL request that
 * keeps its nice level, reports SCHED_NORMAL, nice -20, priority 0 and
 * the flag; and no task
 * of the system (IRQ threads, kworkers, ... that asked for SCHED_FIFO
 * at boot included) reports a realtime policy or priority. Where the
 * architecture offers no way to call the system call, it skips.
 */
static void sched_rt_absent_getattr(struct kunit *test)
{
#ifdef SCHED_TEST_HAVE_SYSCALLS
	struct task_struct *p = ((struct rta_ctx *)test->priv)->p, *g, *t;
	struct sched_param normal = { 0 };
	struct sched_test_user u;
	struct sched_attr got;
	pid_t *pids;
	int i, n = 0, seen = 0;
	long ret;

	/* sched_policy_attr_syscalls checks that they are gone. */
	if (!IS_ENABLED(CONFIG_SCHED_ATTR_SYSCALLS))
		kunit_skip(test, "no sched_getattr() system call (SCHED_ATTR_SYSCALLS=n)");
	pids = kunit_kcalloc(test, RTA_MAX_TASKS, sizeof(*pids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pids);
	KUNIT_ASSERT_EQ(test, sched_test_user_map(&u, PAGE_SIZE), 0);

	sched_set_fifo(p);
	KUNIT_EXPECT_EQ(test, sched_setscheduler_nocheck(p, SCHED_NORMAL | SCHED_RESET_ON_FORK,
							 &normal), 0);
	ret = sched_test_getattr_user(&u, task_pid_vnr(p), &got);
	sched_set_normal(p, 0);
	KUNIT_EXPECT_EQ(test, ret, 0L);
	if (!ret) {
		KUNIT_EXPECT_EQ(test, got.sched_policy, (u32)SCHED_NORMAL);
		KUNIT_EXPECT_EQ(test, got.sched_nice, -20);
		KUNIT_EXPECT_EQ(test, got.sched_priority, 0U);
		KUNIT_EXPECT_EQ(test, got.sched_flags, (u64)SCHED_FLAG_RESET_ON_FORK);
	}
	rta_expect_unchanged(test, p);

	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (n < RTA_MAX_TASKS)
			pids[n++] = task_pid_vnr(t);
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
		KUNIT_EXPECT_NE_MSG(test, got.sched_policy, (u32)SCHED_FIFO, "pid %d", pids[i]);
		KUNIT_EXPECT_NE_MSG(test, got.sched_policy, (u32)SCHED_RR, "pid %d", pids[i]);
		KUNIT_EXPECT_NE_MSG(test, got.sched_policy, (u32)SCHED_DEADLINE, "pid %d",
				    pids[i]);
		KUNIT_EXPECT_EQ_MSG(test, got.sched_priority, 0U, "pid %d", pids[i]);
	}
	KUNIT_EXPECT_GT(test, seen, 1);
	sched_test_user_unmap(&u);
#else
	kunit_skip(test, "no known way to call the system calls on this architecture");
#endif
}

/*
 * The scheduler's debug output: /proc/PID/sched of a thread at the
 * fallback (policy 0, prio 100) and the debugfs file sched/debug (a
 * cfs_rq, no rt_rq, no dl_rq). Each needs its configuration.
 */
#define RTA_PROC_BUF (4 * PAGE_SIZE)
#define RTA_DEBUG_BUF (256 * 1024)

static void sched_rt_absent_proc_sched(struct kunit *test)
{
	struct task_struct *p = ((struct rta_ctx *)test->priv)->p;
	struct sched_test_user u;
	struct vfsmount *mnt;
	char path[32];
	ssize_t len;
	char *buf;

	if (!IS_ENABLED(CONFIG_SCHED_DEBUG) || !IS_ENABLED(CONFIG_PROC_FS))
		kunit_skip(test, "no /proc/PID/sched: needs CONFIG_SCHED_DEBUG and CONFIG_PROC_FS");
	buf = kunit_kmalloc(test, RTA_PROC_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	mnt = sched_test_mount("proc");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "cannot mount proc: %ld", PTR_ERR(mnt));
	if (sched_test_user_map(&u, RTA_PROC_BUF)) {
		kern_unmount(mnt);
		KUNIT_FAIL(test, "no user memory");
		return;
	}
	sched_set_fifo(p);
	snprintf(path, sizeof(path), "%d/sched", task_pid_nr(p));
	len = sched_test_read(mnt, path, &u, buf);
	sched_set_normal(p, 0);
	sched_test_user_unmap(&u);
	kern_unmount(mnt);
	KUNIT_ASSERT_GT_MSG(test, len, (ssize_t)0, "cannot read /proc/%s", path);
	KUNIT_EXPECT_EQ(test, sched_test_field(buf, "policy"), (long)SCHED_NORMAL);
	KUNIT_EXPECT_EQ(test, sched_test_field(buf, "prio"), (long)RTA_FALLBACK_PRIO);
	rta_expect_unchanged(test, p);
}

static void sched_rt_absent_debugfs_sched(struct kunit *test)
{
	struct sched_test_user u;
	struct vfsmount *mnt;
	ssize_t len;
	char *buf;

	if (!IS_ENABLED(CONFIG_SCHED_DEBUG) || !IS_ENABLED(CONFIG_DEBUG_FS))
		kunit_skip(test, "no sched/debug: needs CONFIG_SCHED_DEBUG and CONFIG_DEBUG_FS");
	mnt = sched_test_mount("debugfs");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "cannot mount debugfs: %ld", PTR_ERR(mnt));
	buf = vmalloc(RTA_DEBUG_BUF);
	if (!buf || sched_test_user_map(&u, RTA_DEBUG_BUF)) {
		vfree(buf);
		kern_unmount(mnt);
		KUNIT_FAIL(test, "no memory");
		return;
	}
	len = sched_test_read(mnt, "sched/debug", &u, buf);
	sched_test_user_unmap(&u);
	kern_unmount(mnt);
	KUNIT_EXPECT_GT_MSG(test, len, (ssize_t)0, "cannot read sched/debug");
	KUNIT_EXPECT_LT_MSG(test, len, (ssize_t)RTA_DEBUG_BUF - 1, "sched/debug cut short");
	if (len > 0) {
		KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "\ncfs_rq[0]:"));
		KUNIT_EXPECT_NULL(test, strstr(buf, "rt_rq["));
		KUNIT_EXPECT_NULL(test, strstr(buf, "rt_nr_running"));
		KUNIT_EXPECT_NULL(test, strstr(buf, "dl_rq["));
	}
	vfree(buf);
}

/*
 * The RT predicates are plainly false, whatever they are asked about
 * (a task that claims SCHED_FIFO 50 included): without the class no
 * priority is an RT one and no policy an RT policy.
 */
static void sched_rt_absent_predicates(struct kunit *test)
{
	struct task_struct *fake = kunit_kzalloc(test, sizeof(*fake), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fake);
	fake->policy = SCHED_FIFO;
	fake->prio = 49;
	fake->normal_prio = 49;
	fake->rt_priority = 50;
	KUNIT_EXPECT_EQ(test, rt_prio(0), 0);
	KUNIT_EXPECT_EQ(test, rt_prio(49), 0);
	KUNIT_EXPECT_EQ(test, rt_prio(MAX_RT_PRIO - 1), 0);
	KUNIT_EXPECT_EQ(test, rt_policy(SCHED_FIFO), 0);
	KUNIT_EXPECT_EQ(test, rt_policy(SCHED_RR), 0);
	KUNIT_EXPECT_EQ(test, rt_task(fake), 0);
	KUNIT_EXPECT_EQ(test, task_has_rt_policy(fake), 0);
#ifdef SCHED_TEST_KERNEL_6_12
	/* 6.12: task_is_realtime() became rt_or_dl_task_policy(), beside these. */
	KUNIT_EXPECT_FALSE(test, rt_or_dl_prio(49));
	KUNIT_EXPECT_FALSE(test, rt_or_dl_task(fake));
	KUNIT_EXPECT_FALSE(test, rt_or_dl_task_policy(fake));
#else
	KUNIT_EXPECT_FALSE(test, task_is_realtime(fake));
#endif
	KUNIT_EXPECT_FALSE(test, valid_policy(SCHED_FIFO));
	KUNIT_EXPECT_FALSE(test, valid_policy(SCHED_RR));
	KUNIT_EXPECT_TRUE(test, valid_policy(SCHED_NORMAL));
}

/*
 * The system calls that take an RT priority or limit, on the test kthread,
 * as user space makes them: sched_setparam() with priority 50 is refused
 * (and priority 0 accepted, changing nothing); sched_rr_get_interval()
 * of a thread whose SCHED_RR request was refused gives the fair time
 * slice, at most
 * the 6 ms scheduling period of a uniprocessor with few tasks (by hand:
 * sysctl_sched_latency, 6 ms, times 1 + ilog2(1)), not the 100 ms RR
 * slice; RLIMIT_RTPRIO 50 is accepted by prlimit64() and changes nothing
 * (SCHED_FIFO stays refused), and the old limit is put back with it.
 * Where the architecture offers no way to call the system calls, it skips.
 */
static void sched_rt_absent_rt_syscalls(struct kunit *test)
{
#ifdef SCHED_TEST_HAVE_SYSCALLS
	struct task_struct *p = ((struct rta_ctx *)test->priv)->p;
	struct sched_param fifo10 = { .sched_priority = 10 }, rr50 = { .sched_priority = 50 };
	struct sched_param param50 = { .sched_priority = 50 }, param0 = { 0 };
	struct rlimit64 lim50 = { .rlim_cur = 50, .rlim_max = 50 }, old, back, now;
	unsigned long uparam, uts, unew, uold;
	struct __kernel_timespec ts;
	struct sched_test_user u;
	pid_t pid = task_pid_vnr(p);
	long ret;

	KUNIT_ASSERT_EQ(test, sched_test_user_map(&u, PAGE_SIZE), 0);
	uparam = u.addr;
	uts = u.addr + 64;
	unew = u.addr + 128;
	uold = u.addr + 192;

	KUNIT_EXPECT_EQ(test, copy_to_user((void __user *)uparam, &param50, sizeof(param50)), 0UL);
	KUNIT_EXPECT_EQ(test, sched_test_setparam(pid, uparam), (long)-EINVAL);
	rta_expect_unchanged(test, p);
	KUNIT_EXPECT_EQ(test, copy_to_user((void __user *)uparam, &param0, sizeof(param0)), 0UL);
	KUNIT_EXPECT_EQ(test, sched_test_setparam(pid, uparam), 0L);
	rta_expect_unchanged(test, p);

	KUNIT_EXPECT_EQ(test, sched_setscheduler_nocheck(p, SCHED_RR, &rr50), -EINVAL);
	ret = sched_test_rr_interval(pid, uts);
	KUNIT_EXPECT_EQ(test, ret, 0L);
	if (!ret && !copy_from_user(&ts, (void __user *)uts, sizeof(ts))) {
		KUNIT_EXPECT_EQ(test, ts.tv_sec, 0LL);
		KUNIT_EXPECT_LE(test, ts.tv_nsec, 6LL * NSEC_PER_MSEC);
	}
	sched_set_normal(p, 0);
	rta_expect_unchanged(test, p);

	KUNIT_EXPECT_EQ(test, copy_to_user((void __user *)unew, &lim50, sizeof(lim50)), 0UL);
	KUNIT_ASSERT_EQ(test, sched_test_prlimit(pid, RLIMIT_RTPRIO, unew, uold), 0L);
	KUNIT_EXPECT_EQ(test, sched_setscheduler(p, SCHED_FIFO, &fifo10), -EINVAL);
	rta_expect_unchanged(test, p);
	KUNIT_EXPECT_EQ(test, sched_setscheduler(p, SCHED_BATCH, &param0), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_BATCH);
	sched_set_normal(p, 0);
	/* Back to the old limit, through the same system call. */
	if (!copy_from_user(&old, (void __user *)uold, sizeof(old))) {
		KUNIT_EXPECT_EQ(test, sched_test_prlimit(pid, RLIMIT_RTPRIO, uold, unew), 0L);
		KUNIT_EXPECT_EQ(test, copy_from_user(&back, (void __user *)unew, sizeof(back)),
				0UL);
		KUNIT_EXPECT_EQ(test, back.rlim_cur, 50ULL);
		KUNIT_EXPECT_EQ(test, sched_test_prlimit(pid, RLIMIT_RTPRIO, 0, unew), 0L);
		KUNIT_EXPECT_EQ(test, copy_from_user(&now, (void __user *)unew, sizeof(now)), 0UL);
		KUNIT_EXPECT_EQ(test, now.rlim_cur, old.rlim_cur);
		KUNIT_EXPECT_EQ(test, now.rlim_max, old.rlim_max);
	} else {
		KUNIT_FAIL(test, "cannot read the old RLIMIT_RTPRIO back");
	}
	rta_expect_unchanged(test, p);
	sched_test_user_unmap(&u);
#else
	kunit_skip(test, "no known way to call the system calls on this architecture");
#endif
}

/*
 * Priority inheritance between fair tasks: rt_mutex_setprio(), where the
 * PI walk ends (the kthread cannot take a lock without running), with a
 * donor at nice @donor_nice: the boosted task's prio is the better of its
 * own (120) and the donor's, it stays SCHED_NORMAL in the fair class, and
 * its weight is its own nice 0 one (CFS weighs static_prio).
 */
struct rta_pi_case {
	const char *desc;
	int donor_nice;
	int boosted_prio;
};

static const struct rta_pi_case rta_pi_cases[] = {
	{ "donor at nice -10", -10, 110 },
	{ "donor at the fallback, nice -20", -20, 100 },
	{ "donor at nice 10: no boost", 10, 120 },
};

SCHED_TEST_PARAMS(rta_pi, rta_pi_cases, rta_pi_case);

static void sched_rt_absent_pi_boost(struct kunit *test)
{
#ifdef CONFIG_RT_MUTEXES
	const struct rta_pi_case *c = test->param_value;
	struct rta_ctx *ctx = test->priv;
	struct task_struct *p = ctx->p, *donor;
	unsigned long flags;

	donor = sched_test_kthread("rta_donor");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, donor);
	ctx->donor = donor;
	sched_set_normal(donor, c->donor_nice);
	KUNIT_ASSERT_EQ(test, donor->prio, 120 + c->donor_nice);

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	rt_mutex_setprio(p, donor);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	ctx->boosted = true;
	KUNIT_EXPECT_PTR_EQ(test, p->pi_top_task, donor);
	KUNIT_EXPECT_EQ(test, p->prio, c->boosted_prio);
	KUNIT_EXPECT_EQ(test, p->normal_prio, DEFAULT_PRIO);
	KUNIT_EXPECT_EQ(test, p->static_prio, DEFAULT_PRIO);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	KUNIT_EXPECT_PTR_EQ(test, p->sched_class, &fair_sched_class);
	/* The weight of nice 0, sched_prio_to_weight[20]. */
	KUNIT_EXPECT_EQ(test, p->se.load.weight, (unsigned long)scale_load(1024));

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	rt_mutex_setprio(p, NULL);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	ctx->boosted = false;
	KUNIT_EXPECT_NULL(test, p->pi_top_task);
	rta_expect_unchanged(test, p);
#else
	kunit_skip(test, "needs CONFIG_RT_MUTEXES");
#endif
}

/*
 * A boost survives a change of the boosted task's own nice value: the
 * new normal priority is the task's, the effective one stays the donor's
 * (rt_effective_prio() in __sched_setscheduler()).
 */
static void sched_rt_absent_pi_boost_renice(struct kunit *test)
{
#ifdef CONFIG_RT_MUTEXES
	struct rta_ctx *ctx = test->priv;
	struct task_struct *p = ctx->p, *donor;
	struct sched_attr nice5 = {
		.size		= sizeof(nice5),
		.sched_policy	= SCHED_NORMAL,
		.sched_nice	= 5,
	};
	unsigned long flags;

	donor = sched_test_kthread("rta_donor");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, donor);
	ctx->donor = donor;
	sched_set_normal(donor, -10);

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	rt_mutex_setprio(p, donor);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	ctx->boosted = true;
	KUNIT_EXPECT_EQ(test, sched_setattr_nocheck(p, &nice5), 0);
	KUNIT_EXPECT_EQ(test, p->normal_prio, 125);
	KUNIT_EXPECT_EQ(test, p->prio, 110);
	KUNIT_EXPECT_PTR_EQ(test, p->pi_top_task, donor);

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	rt_mutex_setprio(p, NULL);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	ctx->boosted = false;
	KUNIT_EXPECT_EQ(test, p->prio, 125);
	sched_set_normal(p, 0);
	rta_expect_unchanged(test, p);
#else
	kunit_skip(test, "needs CONFIG_RT_MUTEXES");
#endif
}

static struct kunit_case rta_test_cases[] = {
	KUNIT_CASE_PARAM(sched_rt_absent_setattr, rta_policy_gen_params),
	KUNIT_CASE_PARAM(sched_rt_absent_setscheduler, rta_policy_gen_params),
	KUNIT_CASE(sched_rt_absent_set_fifo),
	KUNIT_CASE_PARAM(sched_rt_absent_set_fifo_nice, rta_nice_gen_params),
	KUNIT_CASE(sched_rt_absent_setattr_keep_params),
	KUNIT_CASE(sched_rt_absent_set_fifo_running),
	KUNIT_CASE(sched_rt_absent_predicates),
	KUNIT_CASE(sched_rt_absent_rt_syscalls),
	KUNIT_CASE(sched_rt_absent_sysctl),
	KUNIT_CASE(sched_rt_absent_rcu_kthread_prio),
	KUNIT_CASE(sched_rt_absent_getattr),
	KUNIT_CASE(sched_rt_absent_proc_sched),
	KUNIT_CASE(sched_rt_absent_debugfs_sched),
	KUNIT_CASE_PARAM(sched_rt_absent_pi_boost, rta_pi_gen_params),
	KUNIT_CASE(sched_rt_absent_pi_boost_renice),
	{}
};

static struct kunit_suite rta_test_suite = {
	.name = "sched_rt_absent",
	.suite_init = sched_test_global_suite_init,
	.init = rta_init,
	.exit = rta_exit,
	.test_cases = rta_test_cases,
};

kunit_test_suite(rta_test_suite);
