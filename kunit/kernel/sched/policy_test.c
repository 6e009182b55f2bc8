// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of what a task's scheduling policy makes of it, built in
 * every kernel: with both classes, without the deadline class
 * (CONFIG_SCHED_CLASS_DL=n) and without the realtime class (CONFIG_SCHED_CLASS_RT=n).
 * Each table row says by hand what a kernel with the realtime class does
 * (.rt) and what one without it does (.nort); a SCHED_DEADLINE request
 * in a kernel without the deadline class gets what .nort says. The
 * expected values follow from the definitions: a SCHED_FIFO or SCHED_RR
 * priority p gives prio = MAX_RT_PRIO - 1 - p = 99 - p, a nice level n
 * gives static_prio = NICE_TO_PRIO(n) = 120 + n, a deadline task has prio
 * -1. Without the RT class every SCHED_FIFO/SCHED_RR request gets -EINVAL,
 * the kernel's own included, and leaves the task as it was, while
 * sched_set_fifo() and sched_set_fifo_low() give SCHED_NORMAL at nice -20
 * (prio 100).
 *
 * Unlike the other suites, the tasks here run: test kthreads fork
 * (kernel_thread()), hold a real rt_mutex that donors block on, and are
 * queued behind the test thread and let run in an order the test checks.
 * Requests are made as the kernel (the _nocheck() forms and the
 * sched_set_*() helpers), as a privileged caller, and as an unprivileged
 * one (override_creds() without CAP_SYS_NICE, with the target's
 * RLIMIT_RTPRIO and RLIMIT_NICE set). Every wait has a timeout: a broken
 * kernel fails the case, it does not hang the boot.
 */
#include <linux/cred.h>
#include <linux/rtmutex.h>
#include <linux/sched/autogroup.h>
#include <linux/sched/task.h>

#include "sched_test_util.h"

/* How long a case waits for a test task to get somewhere. */
#define SP_TIMEOUT	(2 * HZ)

/* A timer slack a parent sets on itself before it forks (ns). */
#define SP_SLACK	123456

/* The scheduling class of a task, as the tables name it. */
enum sp_class { SP_FAIR = 1, SP_RT, SP_DL, SP_OTHER };

static enum sp_class sp_class_of(const struct task_struct *p)
{
	if (p->sched_class == &fair_sched_class)
		return SP_FAIR;
#ifdef CONFIG_SCHED_CLASS_RT
	if (p->sched_class == &rt_sched_class)
		return SP_RT;
#endif
#ifdef CONFIG_SCHED_CLASS_DL
	if (p->sched_class == &dl_sched_class)
		return SP_DL;
#endif
	return SP_OTHER;
}

/* The ways a policy is asked for. */
enum sp_how {
	SP_NONE,
	SP_SETATTR_NOCHECK,	/* sched_setattr_nocheck(): the kernel */
	SP_SETATTR,		/* sched_setattr(): a caller that is checked */
	SP_SETSCHED_NOCHECK,	/* sched_setscheduler_nocheck() */
	SP_SETSCHED,		/* sched_setscheduler() */
	SP_SETPARAM,		/* the sched_setparam() system call */
	SP_SET_FIFO,		/* sched_set_fifo() */
	SP_SET_FIFO_LOW,	/* sched_set_fifo_low() */
	SP_SET_NORMAL,		/* sched_set_normal(p, nice) */
	SP_KERNEL_RT,		/* an RT kthread as this kernel has one, below */
};

struct sp_op {
	enum sp_how how;
	int policy;
	unsigned int prio;
	int nice;
	u64 flags;
};

/*
 * What a task is after a request, and the request's result. No task here
 * is boosted when it is compared with one: normal_prio is prio, but for
 * the one quirk that .normal_prio names.
 */
struct sp_exp {
	int err;
	int policy;
	int prio;
	int static_prio;
	unsigned int rt_priority;
	enum sp_class cls;
	bool reset;
	int normal_prio;	/* when it is not prio (0: it is prio) */
};

/* 10 ms every 100 ms, by 30 ms: a deadline task's parameters. */
#define SP_DL_RUNTIME	(10 * ST_MS)
#define SP_DL_DEADLINE	(30 * ST_MS)
#define SP_DL_PERIOD	(100 * ST_MS)

/*
 * The RR time slice a kernel starts with: RR_TIMESLICE jiffies (100 ms
 * in jiffies, rounded down), TICK_NSEC each, as sched_rr_get_interval()
 * converts them.
 */
#define SP_RR_SLICE_NS	((s64)RR_TIMESLICE * TICK_NSEC)

/* The expectation for this kernel. */
static const struct sp_exp *sp_pick(int policy, const struct sp_exp *rt,
				    const struct sp_exp *nort)
{
	if (policy == SCHED_DEADLINE && !IS_ENABLED(CONFIG_SCHED_CLASS_DL))
		return nort;
	return IS_ENABLED(CONFIG_SCHED_CLASS_RT) ? rt : nort;
}

static void sp_attr(struct sched_attr *attr, const struct sp_op *op)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->sched_policy = op->policy;
	attr->sched_priority = op->prio;
	attr->sched_nice = op->nice;
	attr->sched_flags = op->flags;
	if (op->policy == SCHED_DEADLINE) {
		attr->sched_runtime = SP_DL_RUNTIME;
		attr->sched_deadline = SP_DL_DEADLINE;
		attr->sched_period = SP_DL_PERIOD;
	}
}

/* sched_setparam() as user space calls it, through user memory. */
static int sp_setparam(struct task_struct *p, unsigned int prio)
{
	struct sched_param param = { .sched_priority = prio };
	struct sched_test_user u;
	long ret;

	ret = sched_test_user_map(&u, PAGE_SIZE);
	if (ret)
		return ret;
	if (copy_to_user((void __user *)u.addr, &param, sizeof(param)))
		ret = -EFAULT;
	else
		ret = sched_test_setparam(task_pid_vnr(p), u.addr);
	sched_test_user_unmap(&u);
	return ret;
}

static int sp_do(struct task_struct *p, const struct sp_op *op)
{
	struct sched_param param = { .sched_priority = op->prio };
	struct sched_attr attr;

	sp_attr(&attr, op);
	switch (op->how) {
	case SP_NONE:
		return 0;
	case SP_SETATTR_NOCHECK:
		return sched_setattr_nocheck(p, &attr);
	case SP_SETATTR:
		return sched_setattr(p, &attr);
	case SP_SETSCHED_NOCHECK:
		return sched_setscheduler_nocheck(p, op->policy, &param);
	case SP_SETSCHED:
		return sched_setscheduler(p, op->policy, &param);
	case SP_SETPARAM:
		return sp_setparam(p, op->prio);
	case SP_SET_FIFO:
		sched_set_fifo(p);
		return 0;
	case SP_SET_FIFO_LOW:
		sched_set_fifo_low(p);
		return 0;
	case SP_SET_NORMAL:
		sched_set_normal(p, op->nice);
		return 0;
	case SP_KERNEL_RT:
		/*
		 * The request with the RT class; without it, what
		 * sched_set_fifo() gives instead, with the flags asked for.
		 */
		if (!IS_ENABLED(CONFIG_SCHED_CLASS_RT)) {
			attr.sched_policy = SCHED_NORMAL;
			attr.sched_priority = 0;
			attr.sched_nice = MIN_NICE;
		}
		return sched_setattr_nocheck(p, &attr);
	}
	return -EINVAL;
}

/* Shorthands for the tables. */
#define KN(pol, pr, ni)	{ .how = SP_SETATTR_NOCHECK, .policy = (pol), .prio = (pr), .nice = (ni) }
#define KR(pol, pr, ni)	{ .how = SP_SETATTR_NOCHECK, .policy = (pol), .prio = (pr), .nice = (ni), \
			  .flags = SCHED_FLAG_RESET_ON_FORK }
#define US(pol, pr, ni)	{ .how = SP_SETATTR, .policy = (pol), .prio = (pr), .nice = (ni) }
/* A SCHED_FIFO or SCHED_RR kthread: SCHED_NORMAL at nice -20 without the class. */
#define KT(pol, pr, ni)	{ .how = SP_KERNEL_RT, .policy = (pol), .prio = (pr), .nice = (ni) }
#define KTR(pol, pr, ni) { .how = SP_KERNEL_RT, .policy = (pol), .prio = (pr), .nice = (ni), \
			   .flags = SCHED_FLAG_RESET_ON_FORK }
/* Expected: policy, prio (and normal_prio), static_prio, rt_priority, class. */
#define EX(pol, pr, st, rtp, c)	{ 0, pol, pr, st, rtp, c }
#define EXR(pol, pr, st, rtp, c) { 0, pol, pr, st, rtp, c, true }
#define ERR(e)			{ -(e) }

/* What a never-woken test kthread is: SCHED_NORMAL at nice 0. */
#define EX_START	EX(SCHED_NORMAL, 120, 120, 0, SP_FAIR)
/* What sched_set_fifo() gives without the RT class. */
#define EX_FALLBACK	EX(SCHED_NORMAL, 100, 100, 0, SP_FAIR)

static void sp_expect_task(struct kunit *test, struct task_struct *p,
			   const struct sp_exp *e, const char *desc)
{
	KUNIT_EXPECT_EQ_MSG(test, p->policy, e->policy, "policy: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, p->prio, e->prio, "prio: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, p->normal_prio, e->normal_prio ?: e->prio,
			    "normal_prio: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, p->static_prio, e->static_prio, "static_prio: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, p->rt_priority, e->rt_priority, "rt_priority: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, sp_class_of(p), e->cls, "class: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, (bool)p->sched_reset_on_fork, e->reset,
			    "reset-on-fork: %s", desc);
}

/*
 * What sched_getattr() reports of a task that is as @e says: the policy,
 * the flag, the RT priority for SCHED_FIFO and SCHED_RR, the nice level
 * for the others, the deadline parameters for SCHED_DEADLINE.
 */
static void sp_expect_getattr(struct kunit *test, struct task_struct *p,
			      const struct sp_exp *e, const char *desc)
{
	bool rt = e->policy == SCHED_FIFO || e->policy == SCHED_RR;
	bool dl = e->policy == SCHED_DEADLINE;
	struct sched_test_user u;
	struct sched_attr got;
	long ret;

	if (sched_test_user_map(&u, PAGE_SIZE)) {
		KUNIT_FAIL(test, "no user memory for sched_getattr(): %s", desc);
		return;
	}
	ret = sched_test_getattr_user(&u, task_pid_vnr(p), &got);
	sched_test_user_unmap(&u);
	/* Without the system call there is nothing to read back. */
	if (!IS_ENABLED(CONFIG_SCHED_ATTR_SYSCALLS)) {
		KUNIT_EXPECT_EQ_MSG(test, ret, sched_test_ni_syscall(), "sched_getattr(): %s",
				    desc);
		return;
	}
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "sched_getattr(): %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, got.sched_policy, e->policy, "getattr policy: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, got.sched_flags,
			    e->reset ? (u64)SCHED_FLAG_RESET_ON_FORK : 0ULL,
			    "getattr flags: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, got.sched_priority, rt ? e->rt_priority : 0U,
			    "getattr priority: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, got.sched_nice, rt || dl ? 0 : e->static_prio - 120,
			    "getattr nice: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, got.sched_runtime,
			    dl ? SP_DL_RUNTIME : rt ? 0ULL : sched_test_fair_slice(),
			    "getattr runtime: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, got.sched_deadline, dl ? SP_DL_DEADLINE : 0ULL,
			    "getattr deadline: %s", desc);
	KUNIT_EXPECT_EQ_MSG(test, got.sched_period, dl ? SP_DL_PERIOD : 0ULL,
			    "getattr period: %s", desc);
}

/*
 * A test kthread per case, never woken (stopped by .exit). A deadline
 * task gives its bandwidth back when it dies, so no case makes a task
 * that never ran leave SCHED_DEADLINE (6.1 keeps that task's bandwidth
 * for good, see the sched_setscheduler suite).
 */
struct sp_ctx {
	struct task_struct *p;
};

static int sp_init(struct kunit *test)
{
	struct sp_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	ctx->p = sched_test_kthread("sp_test");
	if (IS_ERR(ctx->p))
		return PTR_ERR(ctx->p);
	test->priv = ctx;
	return 0;
}

static void sp_exit(struct kunit *test)
{
	struct sp_ctx *ctx = test->priv;

	if (ctx)
		kthread_stop(ctx->p);
	sched_test_global_kept(test);
}

/* 1. Each policy, priority and nice level, as each caller asks for it. */

struct sp_request_case {
	const char *desc;
	struct sp_op pre;	/* made by the kernel first */
	struct sp_op op;
	struct sp_exp rt, nort;
};

static const struct sp_request_case sp_request_cases[] = {
	{ "SCHED_NORMAL nice 0 by the kernel", {}, KN(SCHED_NORMAL, 0, 0),
	  EX_START, EX_START },
	{ "SCHED_NORMAL nice -20 by the kernel", {}, KN(SCHED_NORMAL, 0, -20),
	  EX(SCHED_NORMAL, 100, 100, 0, SP_FAIR), EX(SCHED_NORMAL, 100, 100, 0, SP_FAIR) },
	{ "SCHED_NORMAL nice 19 by a user", {}, US(SCHED_NORMAL, 0, 19),
	  EX(SCHED_NORMAL, 139, 139, 0, SP_FAIR), EX(SCHED_NORMAL, 139, 139, 0, SP_FAIR) },
	{ "SCHED_BATCH nice -7 by a user", {}, US(SCHED_BATCH, 0, -7),
	  EX(SCHED_BATCH, 113, 113, 0, SP_FAIR), EX(SCHED_BATCH, 113, 113, 0, SP_FAIR) },
	{ "SCHED_IDLE by a user", {}, US(SCHED_IDLE, 0, 0),
	  EX(SCHED_IDLE, 120, 120, 0, SP_FAIR), EX(SCHED_IDLE, 120, 120, 0, SP_FAIR) },
	{ "SCHED_NORMAL priority 1 by the kernel", {}, KN(SCHED_NORMAL, 1, 0),
	  ERR(EINVAL), ERR(EINVAL) },
	{ "SCHED_FIFO 1 by the kernel", {}, KN(SCHED_FIFO, 1, 0),
	  EX(SCHED_FIFO, 98, 120, 1, SP_RT), ERR(EINVAL) },
	{ "SCHED_FIFO 99 by the kernel", {}, KN(SCHED_FIFO, 99, 0),
	  EX(SCHED_FIFO, 0, 120, 99, SP_RT), ERR(EINVAL) },
	{ "SCHED_FIFO 50 at nice -5 by the kernel", {}, KN(SCHED_FIFO, 50, -5),
	  EX(SCHED_FIFO, 49, 120, 50, SP_RT), ERR(EINVAL) },
	{ "SCHED_RR 40 by the kernel", {}, KN(SCHED_RR, 40, 0),
	  EX(SCHED_RR, 59, 120, 40, SP_RT), ERR(EINVAL) },
	{ "SCHED_FIFO 0 by the kernel", {}, KN(SCHED_FIFO, 0, 0),
	  ERR(EINVAL), ERR(EINVAL) },
	{ "SCHED_FIFO 100 by the kernel", {}, KN(SCHED_FIFO, 100, 0),
	  ERR(EINVAL), ERR(EINVAL) },
	{ "SCHED_FIFO 1 by a user", {}, US(SCHED_FIFO, 1, 0),
	  EX(SCHED_FIFO, 98, 120, 1, SP_RT), ERR(EINVAL) },
	{ "SCHED_RR 99 by a user", {}, US(SCHED_RR, 99, 0),
	  EX(SCHED_RR, 0, 120, 99, SP_RT), ERR(EINVAL) },
	{ "SCHED_FIFO 10 with reset-on-fork by the kernel", {}, KR(SCHED_FIFO, 10, 0),
	  EXR(SCHED_FIFO, 89, 120, 10, SP_RT), ERR(EINVAL) },
	{ "SCHED_DEADLINE by the kernel", {}, KN(SCHED_DEADLINE, 0, 0),
	  EX(SCHED_DEADLINE, -1, 120, 0, SP_DL), ERR(EINVAL) },
	{ "SCHED_FIFO 10 task to SCHED_NORMAL nice 0 by a user",
	  KT(SCHED_FIFO, 10, 0), US(SCHED_NORMAL, 0, 0),
	  EX_START, EX_START },
	{ "nice -5 task to SCHED_FIFO 10 by the kernel", KN(SCHED_NORMAL, 0, -5),
	  KN(SCHED_FIFO, 10, -5),
	  EX(SCHED_FIFO, 89, 115, 10, SP_RT), ERR(EINVAL) },
	{ "nice -5 task to SCHED_FIFO 10 by sched_setscheduler()", KN(SCHED_NORMAL, 0, -5),
	  { .how = SP_SETSCHED, .policy = SCHED_FIFO, .prio = 10 },
	  EX(SCHED_FIFO, 89, 115, 10, SP_RT), ERR(EINVAL) },
	/* sched_setscheduler() keeps the nice level of a fair policy. */
	{ "nice -5 task to SCHED_BATCH by sched_setscheduler_nocheck(): nice kept",
	  KN(SCHED_NORMAL, 0, -5),
	  { .how = SP_SETSCHED_NOCHECK, .policy = SCHED_BATCH },
	  EX(SCHED_BATCH, 115, 115, 0, SP_FAIR), EX(SCHED_BATCH, 115, 115, 0, SP_FAIR) },
	{ "SCHED_FIFO 10 task: sched_setparam() 30", KT(SCHED_FIFO, 10, 0),
	  { .how = SP_SETPARAM, .prio = 30 },
	  EX(SCHED_FIFO, 69, 120, 30, SP_RT), ERR(EINVAL) },
	{ "SCHED_NORMAL task: sched_setparam() 0", {},
	  { .how = SP_SETPARAM, .prio = 0 },
	  EX_START, EX_START },
	{ "SCHED_NORMAL task: sched_setparam() 5", {},
	  { .how = SP_SETPARAM, .prio = 5 },
	  ERR(EINVAL), ERR(EINVAL) },
	/*
	 * SCHED_IDLE keeps static_prio (only SCHED_NORMAL and SCHED_BATCH
	 * set it from the nice level) and normal_prio follows it, but prio
	 * comes from the request's nice (__normal_prio() of the attr): the
	 * fallback's static_prio 100 stays under a prio of 120.
	 */
	{ "SCHED_RR 5 task to SCHED_IDLE by a user", KT(SCHED_RR, 5, 0),
	  US(SCHED_IDLE, 0, 0), EX(SCHED_IDLE, 120, 120, 0, SP_FAIR),
	  { .policy = SCHED_IDLE, .prio = 120, .normal_prio = 100, .static_prio = 100,
	    .cls = SP_FAIR } },
};

SCHED_TEST_PARAMS(sp_request, sp_request_cases, sp_request_case);

/* What @p is now, in the terms of the tables. */
static void sp_snap(const struct task_struct *p, struct sp_exp *e)
{
	*e = (struct sp_exp){ 0, p->policy, p->prio, p->static_prio,
			      p->rt_priority, sp_class_of(p), p->sched_reset_on_fork,
			      p->normal_prio };
}

static void sched_policy_request(struct kunit *test)
{
	const struct sp_request_case *c = test->param_value;
	const struct sp_exp *e = sp_pick(c->op.policy, &c->rt, &c->nort);
	struct sp_ctx *ctx = test->priv;
	struct sp_exp before;
	int ret;

	KUNIT_ASSERT_EQ_MSG(test, sp_do(ctx->p, &c->pre), 0, "the pre request of %s", c->desc);
	sp_snap(ctx->p, &before);
	ret = sp_do(ctx->p, &c->op);
	KUNIT_EXPECT_EQ_MSG(test, ret, e->err, "%s", c->desc);
	/* Refused: nothing changed. */
	if (e->err)
		e = &before;
	sp_expect_task(test, ctx->p, e, c->desc);
	sp_expect_getattr(test, ctx->p, e, c->desc);
}

/* 2. The priority range and the RR interval of each policy. */

struct sp_range_case {
	const char *desc;
	int policy;
	long max, min;		/* with the RT class */
	long max_nort, min_nort;
};

static const struct sp_range_case sp_range_cases[] = {
	{ "SCHED_NORMAL", SCHED_NORMAL, 0, 0, 0, 0 },
	{ "SCHED_BATCH", SCHED_BATCH, 0, 0, 0, 0 },
	{ "SCHED_IDLE", SCHED_IDLE, 0, 0, 0, 0 },
	{ "SCHED_FIFO", SCHED_FIFO, 99, 1, -EINVAL, -EINVAL },
	{ "SCHED_RR", SCHED_RR, 99, 1, -EINVAL, -EINVAL },
	{ "SCHED_DEADLINE", SCHED_DEADLINE, 0, 0, -EINVAL, -EINVAL },
	{ "policy 4 (unused)", 4, -EINVAL, -EINVAL, -EINVAL, -EINVAL },
#ifdef SCHED_EXT
	/* The priority calls know sched_ext's policy with or without its class. */
	{ "SCHED_EXT", SCHED_EXT, 0, 0, 0, 0 },
	{ "policy 8 (one past SCHED_EXT)", 8, -EINVAL, -EINVAL, -EINVAL, -EINVAL },
#else
	{ "policy 7 (one past SCHED_DEADLINE)", 7, -EINVAL, -EINVAL, -EINVAL, -EINVAL },
#endif
	{ "policy -1", -1, -EINVAL, -EINVAL, -EINVAL, -EINVAL },
};

SCHED_TEST_PARAMS(sp_range, sp_range_cases, sp_range_case);

static void sched_policy_priority_range(struct kunit *test)
{
	const struct sp_range_case *c = test->param_value;
	bool nort = !IS_ENABLED(CONFIG_SCHED_CLASS_RT) ||
		    (c->policy == SCHED_DEADLINE && !IS_ENABLED(CONFIG_SCHED_CLASS_DL));

	KUNIT_EXPECT_EQ_MSG(test, sched_test_prio_max(c->policy),
			    nort ? c->max_nort : c->max, "max: %s", c->desc);
	KUNIT_EXPECT_EQ_MSG(test, sched_test_prio_min(c->policy),
			    nort ? c->min_nort : c->min, "min: %s", c->desc);
}

/* sched_rr_get_interval() of @p, in ns, or an error. */
static s64 sp_rr_interval(struct task_struct *p)
{
	struct __kernel_timespec ts;
	struct sched_test_user u;
	long ret;

	ret = sched_test_user_map(&u, PAGE_SIZE);
	if (ret)
		return ret;
	ret = sched_test_rr_interval(task_pid_vnr(p), u.addr);
	if (!ret && copy_from_user(&ts, (void __user *)u.addr, sizeof(ts)))
		ret = -EFAULT;
	sched_test_user_unmap(&u);
	if (ret)
		return ret;
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/*
 * The RR time slice is 100 ms (RR_TIMESLICE) for a SCHED_RR task, also
 * after it left RR and came back; a SCHED_FIFO task has none (0). Without
 * the RT class the kernel's RR request is refused and the task stays a
 * fair one, whose interval is its fair slice in whole jiffies: 0 or more,
 * at most the fair latency of 24 ms times 1 + log2(CPUs)
 * (sysctl_sched_latency, scaled).
 */
static void sched_policy_rr_interval(struct kunit *test)
{
	struct sp_ctx *ctx = test->priv;
	struct sched_param fifo = { .sched_priority = 10 };
	struct sched_param rr = { .sched_priority = 10 };
	struct sched_param normal = {};
	int ret;
	s64 ns;

	ret = sched_setscheduler_nocheck(ctx->p, SCHED_RR, &rr);
	ns = sp_rr_interval(ctx->p);
	if (!IS_ENABLED(CONFIG_SCHED_CLASS_RT)) {
		const struct sp_exp start = EX_START;

		KUNIT_EXPECT_EQ(test, ret, -EINVAL);
		sp_expect_task(test, ctx->p, &start, "SCHED_RR without the class");
		KUNIT_EXPECT_GE(test, ns, 0LL);
		KUNIT_EXPECT_NE(test, ns, SP_RR_SLICE_NS);
		KUNIT_EXPECT_LE(test, ns, 24LL * ST_MS * (1 + ilog2(num_online_cpus())));
		return;
	}
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ_MSG(test, ns, (s64)SP_RR_SLICE_NS, "SCHED_RR");
	KUNIT_ASSERT_EQ(test, sched_setscheduler_nocheck(ctx->p, SCHED_FIFO, &fifo), 0);
	KUNIT_EXPECT_EQ_MSG(test, sp_rr_interval(ctx->p), 0LL, "SCHED_FIFO");
	KUNIT_ASSERT_EQ(test, sched_setscheduler_nocheck(ctx->p, SCHED_NORMAL, &normal), 0);
	KUNIT_ASSERT_EQ(test, sched_setscheduler_nocheck(ctx->p, SCHED_RR, &rr), 0);
	KUNIT_EXPECT_EQ_MSG(test, sp_rr_interval(ctx->p), (s64)SP_RR_SLICE_NS,
			    "SCHED_RR again");
}

/*
 * The active utilization (running_bw) of a runnable deadline task, across
 * changes of its parameters. The test thread makes itself SCHED_DEADLINE
 * and changes its parameters while it runs: each time, its runqueue's
 * running_bw is its bandwidth, runtime / period in units of 2^-20
 * (BW_SHIFT), rounded down; once it is fair again, no runqueue has any
 * (6.12's fair servers' part left out: sched_test_dl_server_running()).
 */
#ifdef CONFIG_SCHED_CLASS_DL
struct sp_bw_case {
	u64 runtime, deadline, period;
	u64 bw;
	const char *desc;
};

static const struct sp_bw_case sp_bw_cases[] = {
	{ 5 * ST_MS, 10 * ST_MS, 10 * ST_MS, 524288, "5 ms every 10 ms: 2^20 / 2" },
	{ 2 * ST_MS, 10 * ST_MS, 10 * ST_MS, 209715, "2 ms every 10 ms: 2^21 / 10" },
	{ 2 * ST_MS, 5 * ST_MS, 20 * ST_MS, 104857, "2 ms every 20 ms by 5: 2^21 / 20" },
};

/* The running_bw of the runqueue of the CPU this runs on. */
static u64 sp_running_bw(void)
{
	unsigned long flags;
	struct rq *rq;
	u64 bw;

	local_irq_save(flags);
	rq = this_rq();
	raw_spin_rq_lock(rq);
	bw = rq->dl.running_bw - sched_test_dl_server_running(rq);
	raw_spin_rq_unlock(rq);
	local_irq_restore(flags);
	return bw;
}

/* Whether no runqueue has any active deadline utilization. */
static bool sp_dl_inactive(void)
{
	unsigned long flags;
	u64 bw = 0;
	int cpu;

	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		raw_spin_rq_lock_irqsave(rq, flags);
		bw += rq->dl.running_bw - sched_test_dl_server_running(rq);
		raw_spin_rq_unlock_irqrestore(rq, flags);
	}
	return !bw;
}

static void sched_policy_running_bw(struct kunit *test)
{
	struct sched_attr attr = { .size = sizeof(attr), .sched_policy = SCHED_DEADLINE };
	const struct sp_op normal = KN(SCHED_NORMAL, 0, 0);
	int ret[ARRAY_SIZE(sp_bw_cases)], back, i;
	u64 seen[ARRAY_SIZE(sp_bw_cases)];
	unsigned long end = jiffies + SP_TIMEOUT;

	/* A task that ran as a deadline task before may still be active. */
	while (!sp_dl_inactive() && time_before(jiffies, end))
		msleep(20);
	KUNIT_ASSERT_TRUE_MSG(test, sp_dl_inactive(), "a deadline task is still active");
	/* Nothing here may sleep: a deadline task that sleeps stops contending. */
	for (i = 0; i < ARRAY_SIZE(sp_bw_cases); i++) {
		attr.sched_runtime = sp_bw_cases[i].runtime;
		attr.sched_deadline = sp_bw_cases[i].deadline;
		attr.sched_period = sp_bw_cases[i].period;
		ret[i] = sched_setattr_nocheck(current, &attr);
		seen[i] = sp_running_bw();
	}
	back = sp_do(current, &normal);
	for (i = 0; i < ARRAY_SIZE(sp_bw_cases); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ret[i], 0, "%s", sp_bw_cases[i].desc);
		KUNIT_EXPECT_EQ_MSG(test, seen[i], sp_bw_cases[i].bw, "%s", sp_bw_cases[i].desc);
	}
	KUNIT_EXPECT_EQ(test, back, 0);
	KUNIT_EXPECT_EQ(test, current->policy, SCHED_NORMAL);
	KUNIT_EXPECT_TRUE_MSG(test, sp_dl_inactive(), "running_bw left once fair again");
}
#else
static void sched_policy_running_bw(struct kunit *test)
{
	kunit_skip(test, "no deadline class (CONFIG_SCHED_CLASS_DL=n)");
}
#endif /* CONFIG_SCHED_CLASS_DL */

/* 3. The kernel's helpers. */

struct sp_helper_case {
	const char *desc;
	struct sp_op pre, op;
	struct sp_exp rt, nort;
};

static const struct sp_helper_case sp_helper_cases[] = {
	{ "sched_set_fifo()", {}, { .how = SP_SET_FIFO },
	  EX(SCHED_FIFO, 49, 120, 50, SP_RT), EX_FALLBACK },
	{ "sched_set_fifo_low()", {}, { .how = SP_SET_FIFO_LOW },
	  EX(SCHED_FIFO, 98, 120, 1, SP_RT), EX_FALLBACK },
	{ "sched_set_normal() nice 5", {}, { .how = SP_SET_NORMAL, .nice = 5 },
	  EX(SCHED_NORMAL, 125, 125, 0, SP_FAIR), EX(SCHED_NORMAL, 125, 125, 0, SP_FAIR) },
	{ "sched_set_normal() nice -3 of a sched_set_fifo() task", { .how = SP_SET_FIFO },
	  { .how = SP_SET_NORMAL, .nice = -3 },
	  EX(SCHED_NORMAL, 117, 117, 0, SP_FAIR), EX(SCHED_NORMAL, 117, 117, 0, SP_FAIR) },
	{ "sched_set_fifo() of a nice 4 task", { .how = SP_SET_NORMAL, .nice = 4 },
	  { .how = SP_SET_FIFO },
	  EX(SCHED_FIFO, 49, 124, 50, SP_RT), EX_FALLBACK },
	{ "sched_setscheduler_nocheck() SCHED_FIFO 30", {},
	  { .how = SP_SETSCHED_NOCHECK, .policy = SCHED_FIFO, .prio = 30 },
	  EX(SCHED_FIFO, 69, 120, 30, SP_RT), ERR(EINVAL) },
	{ "sched_setscheduler_nocheck() SCHED_RR 99", {},
	  { .how = SP_SETSCHED_NOCHECK, .policy = SCHED_RR, .prio = 99 },
	  EX(SCHED_RR, 0, 120, 99, SP_RT), ERR(EINVAL) },
	{ "sched_setscheduler_nocheck() SCHED_FIFO 0", {},
	  { .how = SP_SETSCHED_NOCHECK, .policy = SCHED_FIFO, .prio = 0 },
	  ERR(EINVAL), ERR(EINVAL) },
	{ "sched_setscheduler_nocheck() SCHED_RR 100", {},
	  { .how = SP_SETSCHED_NOCHECK, .policy = SCHED_RR, .prio = 100 },
	  ERR(EINVAL), ERR(EINVAL) },
	{ "sched_setscheduler_nocheck() SCHED_FIFO 30 of a nice 4 task",
	  { .how = SP_SET_NORMAL, .nice = 4 },
	  { .how = SP_SETSCHED_NOCHECK, .policy = SCHED_FIFO, .prio = 30 },
	  EX(SCHED_FIFO, 69, 124, 30, SP_RT), ERR(EINVAL) },
};

SCHED_TEST_PARAMS(sp_helper, sp_helper_cases, sp_helper_case);

static void sched_policy_helper(struct kunit *test)
{
	const struct sp_helper_case *c = test->param_value;
	const struct sp_exp *e = IS_ENABLED(CONFIG_SCHED_CLASS_RT) ? &c->rt : &c->nort;
	struct sp_ctx *ctx = test->priv;
	struct sp_exp before;

	KUNIT_ASSERT_EQ(test, sp_do(ctx->p, &c->pre), 0);
	sp_snap(ctx->p, &before);
	KUNIT_EXPECT_EQ_MSG(test, sp_do(ctx->p, &c->op), e->err, "%s", c->desc);
	/* Refused: nothing changed. */
	sp_expect_task(test, ctx->p, e->err ? &before : e, c->desc);
}

/*
 * The nice level of a nice 4 task that the kernel asks to make SCHED_FIFO
 * or SCHED_RR, then SCHED_NORMAL again. With the RT class the RT task
 * keeps its nice level in static_prio, and a SCHED_NORMAL request that
 * keeps the nice level (sched_setscheduler()) gives it back. Without the
 * class a direct request is refused and changes nothing, so the round
 * trip gives nice 4 too; sched_set_fifo() and sched_set_fifo_low() make
 * the task SCHED_NORMAL at nice -20 instead, from nice 4 as from nice 0,
 * which such a request keeps (the Kconfig help says so), and
 * sched_set_normal() sets the level it names.
 */
struct sp_trip_case {
	const char *desc;
	int start;		/* the task's nice level before @to */
	struct sp_op to, back;
	int err, err_nort;	/* of the request of @to */
	int nice, nice_nort;	/* after @back */
};

#define SP_BACK_KEEP	{ .how = SP_SETSCHED_NOCHECK, .policy = SCHED_NORMAL }

static const struct sp_trip_case sp_trip_cases[] = {
	{ "SCHED_FIFO 30 by sched_setscheduler_nocheck(), back keeping nice", 4,
	  { .how = SP_SETSCHED_NOCHECK, .policy = SCHED_FIFO, .prio = 30 }, SP_BACK_KEEP,
	  0, -EINVAL, 4, 4 },
	{ "SCHED_RR 10 by sched_setattr_nocheck(), back keeping nice", 4,
	  KN(SCHED_RR, 10, 4), SP_BACK_KEEP, 0, -EINVAL, 4, 4 },
	{ "sched_set_fifo(), back keeping nice", 4, { .how = SP_SET_FIFO }, SP_BACK_KEEP,
	  0, 0, 4, -20 },
	{ "sched_set_fifo_low(), back keeping nice", 4, { .how = SP_SET_FIFO_LOW },
	  SP_BACK_KEEP, 0, 0, 4, -20 },
	{ "sched_set_fifo() at nice 0, back keeping nice", 0, { .how = SP_SET_FIFO },
	  SP_BACK_KEEP, 0, 0, 0, -20 },
	{ "sched_set_fifo_low() at nice 0, back keeping nice", 0, { .how = SP_SET_FIFO_LOW },
	  SP_BACK_KEEP, 0, 0, 0, -20 },
	{ "sched_set_fifo(), back by sched_set_normal() nice 4", 4, { .how = SP_SET_FIFO },
	  { .how = SP_SET_NORMAL, .nice = 4 }, 0, 0, 4, 4 },
};

SCHED_TEST_PARAMS(sp_trip, sp_trip_cases, sp_trip_case);

static void sched_policy_nice_round_trip(struct kunit *test)
{
	const struct sp_trip_case *c = test->param_value;
	bool rt = IS_ENABLED(CONFIG_SCHED_CLASS_RT);
	int nice = rt ? c->nice : c->nice_nort;
	const struct sp_exp e = EX(SCHED_NORMAL, 120 + nice, 120 + nice, 0, SP_FAIR);
	struct sp_ctx *ctx = test->priv;

	sched_set_normal(ctx->p, c->start);
	KUNIT_EXPECT_EQ_MSG(test, sp_do(ctx->p, &c->to), rt ? c->err : c->err_nort,
			    "%s", c->desc);
	KUNIT_ASSERT_EQ_MSG(test, sp_do(ctx->p, &c->back), 0, "back: %s", c->desc);
	sp_expect_task(test, ctx->p, &e, c->desc);
}

/*
 * The system calls of struct sched_attr, as user space makes them, on a
 * SCHED_NORMAL task at nice 0: with CONFIG_SCHED_ATTR_SYSCALLS they work;
 * without it sched_setattr() and sched_getattr() are not implemented
 * (they give what sys_ni_syscall() gives) and change nothing, and
 * sched_setparam() still works (the Kconfig help).
 */
enum sp_call { SP_SYS_GETATTR, SP_SYS_SETATTR, SP_SYS_SETPARAM };

struct sp_sys_case {
	const char *desc;
	enum sp_call call;
	bool gone;		/* without the option */
	int nice, nice_nosys;	/* after the call */
};

static const struct sp_sys_case sp_sys_cases[] = {
	{ "sched_getattr()", SP_SYS_GETATTR, true, 0, 0 },
	{ "sched_setattr() SCHED_NORMAL nice 5", SP_SYS_SETATTR, true, 5, 0 },
	{ "sched_setparam() priority 0", SP_SYS_SETPARAM, false, 0, 0 },
};

SCHED_TEST_PARAMS(sp_sys, sp_sys_cases, sp_sys_case);

static long sp_sys_call(struct task_struct *p, enum sp_call call)
{
	struct sched_attr attr = {
		.size = SCHED_ATTR_SIZE_VER0, .sched_policy = SCHED_NORMAL, .sched_nice = 5,
	};
	struct sched_param param = { .sched_priority = 0 };
	struct sched_test_user u;
	long ret;

	ret = sched_test_user_map(&u, PAGE_SIZE);
	if (ret)
		return ret;
	switch (call) {
	case SP_SYS_GETATTR:
		ret = sched_test_getattr(task_pid_vnr(p), u.addr, sizeof(attr));
		break;
	case SP_SYS_SETATTR:
		ret = copy_to_user((void __user *)u.addr, &attr, sizeof(attr)) ? -EFAULT :
			sched_test_setattr(task_pid_vnr(p), u.addr);
		break;
	case SP_SYS_SETPARAM:
		ret = copy_to_user((void __user *)u.addr, &param, sizeof(param)) ? -EFAULT :
			sched_test_setparam(task_pid_vnr(p), u.addr);
		break;
	}
	sched_test_user_unmap(&u);
	return ret;
}

static void sched_policy_attr_syscalls(struct kunit *test)
{
	const struct sp_sys_case *c = test->param_value;
	bool sys = IS_ENABLED(CONFIG_SCHED_ATTR_SYSCALLS);
	int nice = sys ? c->nice : c->nice_nosys;
	const struct sp_exp e = EX(SCHED_NORMAL, 120 + nice, 120 + nice, 0, SP_FAIR);
	struct sp_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ_MSG(test, sp_sys_call(ctx->p, c->call),
			    !sys && c->gone ? sched_test_ni_syscall() : 0L, "%s", c->desc);
	sp_expect_task(test, ctx->p, &e, c->desc);
}

/* 4. Callers without CAP_SYS_NICE. */

struct sp_user_case {
	const char *desc;
	struct sp_op pre;	/* made by the kernel first */
	unsigned long rtprio, nice;	/* the target's RLIMIT_RTPRIO, RLIMIT_NICE */
	bool other;		/* the caller is another user */
	struct sp_op op;	/* made by the unprivileged caller */
	int err, err_nort;
};

#define UR(pol, pr, ni)	{ .how = SP_SETATTR, .policy = (pol), .prio = (pr), .nice = (ni) }
#define URR(pol, pr, ni) { .how = SP_SETATTR, .policy = (pol), .prio = (pr), .nice = (ni), \
			   .flags = SCHED_FLAG_RESET_ON_FORK }

static const struct sp_user_case sp_user_cases[] = {
	{ "SCHED_FIFO 1, RLIMIT_RTPRIO 0", {}, 0, 0, false,
	  UR(SCHED_FIFO, 1, 0), -EPERM, -EINVAL },
	{ "SCHED_FIFO 10, RLIMIT_RTPRIO 10", {}, 10, 0, false,
	  UR(SCHED_FIFO, 10, 0), 0, -EINVAL },
	{ "SCHED_FIFO 11, RLIMIT_RTPRIO 10", {}, 10, 0, false,
	  UR(SCHED_FIFO, 11, 0), -EPERM, -EINVAL },
	{ "SCHED_FIFO 20 task down to 15, RLIMIT_RTPRIO 0", KT(SCHED_FIFO, 20, 0), 0, 0, false,
	  UR(SCHED_FIFO, 15, 0), 0, -EINVAL },
	{ "SCHED_FIFO 20 task up to 21, RLIMIT_RTPRIO 0", KT(SCHED_FIFO, 20, 0), 0, 0, false,
	  UR(SCHED_FIFO, 21, 0), -EPERM, -EINVAL },
	{ "SCHED_FIFO 20 task up to 21, RLIMIT_RTPRIO 21", KT(SCHED_FIFO, 20, 0), 21, 0, false,
	  UR(SCHED_FIFO, 21, 0), 0, -EINVAL },
	{ "SCHED_FIFO 20 task to SCHED_RR 20, RLIMIT_RTPRIO 0", KT(SCHED_FIFO, 20, 0), 0, 0,
	  false, UR(SCHED_RR, 20, 0), -EPERM, -EINVAL },
	{ "SCHED_FIFO 20 task to SCHED_RR 20, RLIMIT_RTPRIO 1", KT(SCHED_FIFO, 20, 0), 1, 0,
	  false, UR(SCHED_RR, 20, 0), 0, -EINVAL },
	{ "nice -5, RLIMIT_NICE 25", {}, 0, 25, false, UR(SCHED_NORMAL, 0, -5), 0, 0 },
	{ "nice -6, RLIMIT_NICE 25", {}, 0, 25, false, UR(SCHED_NORMAL, 0, -6), -EPERM, -EPERM },
	{ "nice 5, RLIMIT_NICE 0", {}, 0, 0, false, UR(SCHED_NORMAL, 0, 5), 0, 0 },
	{ "nice 3 task to nice 1, RLIMIT_NICE 19", KN(SCHED_NORMAL, 0, 3), 0, 19, false,
	  UR(SCHED_BATCH, 0, 1), 0, 0 },
	{ "nice 3 task to nice 0, RLIMIT_NICE 19", KN(SCHED_NORMAL, 0, 3), 0, 19, false,
	  UR(SCHED_NORMAL, 0, 0), -EPERM, -EPERM },
	{ "SCHED_IDLE task to SCHED_NORMAL, RLIMIT_NICE 0", KN(SCHED_IDLE, 0, 0), 0, 0, false,
	  UR(SCHED_NORMAL, 0, 0), -EPERM, -EPERM },
	{ "SCHED_IDLE task to SCHED_NORMAL, RLIMIT_NICE 20", KN(SCHED_IDLE, 0, 0), 0, 20, false,
	  UR(SCHED_NORMAL, 0, 0), 0, 0 },
	{ "another user's task, nice 5", {}, 0, 0, true, UR(SCHED_NORMAL, 0, 5),
	  -EPERM, -EPERM },
	{ "reset-on-fork task, without the flag", KR(SCHED_NORMAL, 0, 0), 0, 0, false,
	  UR(SCHED_NORMAL, 0, 0), -EPERM, -EPERM },
	{ "reset-on-fork task, with the flag", KR(SCHED_NORMAL, 0, 0), 0, 0, false,
	  URR(SCHED_NORMAL, 0, 0), 0, 0 },
	{ "SCHED_DEADLINE", {}, 0, 0, false, UR(SCHED_DEADLINE, 0, 0), -EPERM, -EINVAL },
};

SCHED_TEST_PARAMS(sp_user, sp_user_cases, sp_user_case);

/* Set @p's rlimit @res as setrlimit() would (p is the case's own task). */
static void sp_set_rlimit(struct task_struct *p, unsigned int res, unsigned long val)
{
	struct rlimit *r = p->signal->rlim + res;

	task_lock(p->group_leader);
	r->rlim_cur = val;
	r->rlim_max = val;
	task_unlock(p->group_leader);
}

static void sched_policy_unprivileged(struct kunit *test)
{
	const struct sp_user_case *c = test->param_value;
	struct sp_ctx *ctx = test->priv;
	const struct cred *old;
	struct cred *cred;
	struct sp_exp before;
	int err, ret;

	KUNIT_ASSERT_EQ(test, sp_do(ctx->p, &c->pre), 0);
	sp_snap(ctx->p, &before);
	sp_set_rlimit(ctx->p, RLIMIT_RTPRIO, c->rtprio);
	sp_set_rlimit(ctx->p, RLIMIT_NICE, c->nice);

	err = sp_pick(c->op.policy, &(struct sp_exp){ c->err },
		      &(struct sp_exp){ c->err_nort })->err;
	/* Without MULTIUSER every caller has every capability. */
	if (!IS_ENABLED(CONFIG_MULTIUSER) && err == -EPERM)
		err = 0;

	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_lower(cred->cap_effective, CAP_SYS_NICE);
	if (c->other)
		cred->euid = KUIDT_INIT(1000);
	old = override_creds(cred);
	ret = sp_do(ctx->p, &c->op);
	revert_creds(old);
	put_cred(cred);

	KUNIT_EXPECT_EQ_MSG(test, ret, err, "%s", c->desc);
	if (ret) {
		/* Refused: nothing changed. */
		sp_expect_task(test, ctx->p, &before, c->desc);
		return;
	}
	/* Granted: what was asked for. */
	KUNIT_EXPECT_EQ_MSG(test, ctx->p->policy, c->op.policy, "policy: %s", c->desc);
	KUNIT_EXPECT_EQ_MSG(test, ctx->p->rt_priority, c->op.prio, "rt_priority: %s", c->desc);
	if (c->op.policy == SCHED_NORMAL || c->op.policy == SCHED_BATCH)
		KUNIT_EXPECT_EQ_MSG(test, ctx->p->static_prio, 120 + c->op.nice,
				    "static_prio: %s", c->desc);
	KUNIT_EXPECT_EQ_MSG(test, (bool)ctx->p->sched_reset_on_fork,
			    !!(c->op.flags & SCHED_FLAG_RESET_ON_FORK),
			    "reset-on-fork: %s", c->desc);
}

/* Test tasks that run: they hold locks, fork, and say when they ran. */

/* How long a test task waits for the test before it gives up and ends. */
#define SP_TASK_TIMEOUT	(10 * SP_TIMEOUT)

struct sp_task {
	struct task_struct *t;
	bool woken;
	struct rt_mutex *lock;		/* taken first, if any */
	bool fork;			/* fork a child when told to go */
	struct completion ready;	/* it holds the lock (or runs) */
	struct completion go;		/* the test lets it go on */
	struct completion done;		/* it let go of the lock */
	struct completion child_done;	/* its child looked at itself */
	atomic_t *seq;			/* the order tasks ran in */
	int ran;			/* its place in that order */
	int fork_ret;
	bool child_lost;		/* the child may still write here */
	struct sp_exp child;		/* what the child was */
	u64 child_slack;
	/* A spinning owner's view of itself once boosted (sp_spinner_fn()). */
	bool boosted;
	u64 now, deadline;
	s64 runtime;
	void *pi_se;
};

/*
 * What a case's test tasks share. It is neither on the case's stack nor
 * kunit-managed: a task the case could not stop may still use it, so
 * sp_world_end() frees it only once every task is gone, and leaves it
 * (the case failed) otherwise.
 */
struct sp_world {
	struct sp_task a, b;
	struct rt_mutex lock;
	atomic_t seq;
};

/* Ready to be completed and waited on, before the task exists. */
static void sp_task_init(struct sp_task *st)
{
	init_completion(&st->ready);
	init_completion(&st->go);
	init_completion(&st->done);
	init_completion(&st->child_done);
}

static struct sp_world *sp_world_new(struct kunit *test)
{
	struct sp_world *w = kzalloc(sizeof(*w), GFP_KERNEL);

	if (!w) {
		KUNIT_FAIL(test, "no memory for the test tasks");
		return NULL;
	}
	rt_mutex_init(&w->lock);
	atomic_set(&w->seq, 0);
	sp_task_init(&w->a);
	sp_task_init(&w->b);
	return w;
}

static void sp_wait_stop(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
}

/* The child of a forking test task: it looks at itself and exits. */
static int sp_child_fn(void *data)
{
	struct sp_task *st = data;
	struct task_struct *me = current;

	st->child = (struct sp_exp){ 0, me->policy, me->prio, me->static_prio,
				     me->rt_priority, sp_class_of(me),
				     me->sched_reset_on_fork, me->normal_prio };
	st->child_slack = me->timer_slack_ns;
	complete_all(&st->child_done);
	do_exit(0);
}

static void sp_fork(struct sp_task *st)
{
	int status;

	current->timer_slack_ns = SP_SLACK;
	st->fork_ret = st_kernel_thread(sp_child_fn, st, CLONE_FS | CLONE_FILES | SIGCHLD);
	if (st->fork_ret <= 0)
		return;
	if (!wait_for_completion_timeout(&st->child_done, SP_TASK_TIMEOUT)) {
		st->child_lost = true;
		return;
	}
	/*
	 * The child said it exits: wait until it is gone (reaped at once, its
	 * parent ignores SIGCHLD as every kthread does, or here), so that it
	 * is never left to init.
	 */
	kernel_wait(st->fork_ret, &status);
}

static int sp_task_fn(void *data)
{
	struct sp_task *st = data;

	if (st->lock)
		rt_mutex_lock(st->lock);
	if (st->seq)
		st->ran = atomic_inc_return(st->seq);
	complete_all(&st->ready);
	if (st->lock || st->fork) {
		if (wait_for_completion_timeout(&st->go, SP_TASK_TIMEOUT) && st->fork)
			sp_fork(st);
		if (st->lock)
			rt_mutex_unlock(st->lock);
	}
	complete_all(&st->done);
	sp_wait_stop();
	return 0;
}

/* A donor: blocks on the lock, takes it, lets go at once. */
static int sp_donor_fn(void *data)
{
	struct sp_task *st = data;

	rt_mutex_lock(st->lock);
	rt_mutex_unlock(st->lock);
	complete_all(&st->done);
	sp_wait_stop();
	return 0;
}

/* A test task, not yet woken, made what @op says by the kernel. */
static int sp_task_new(struct kunit *test, struct sp_task *st, int (*fn)(void *),
		       const struct sp_op *op, int cpu)
{
	int ret;

	st->t = kthread_create(fn, st, "sp_task");
	if (IS_ERR(st->t)) {
		ret = PTR_ERR(st->t);
		st->t = NULL;
		return ret;
	}
	get_task_struct(st->t);
	st->woken = false;
	if (cpu >= 0)
		kthread_bind(st->t, cpu);
	ret = sp_do(st->t, op);
	if (ret) {
		kthread_stop(st->t);
		put_task_struct(st->t);
		st->t = NULL;
	}
	return ret;
}

static void sp_wake(struct sp_task *st)
{
	st->woken = true;
	wake_up_process(st->t);
}

/*
 * Stop a test task that got to its end: true when it is gone. One that
 * did not (it may be blocked for good in a broken kernel) is left, and
 * the case fails.
 */
static bool sp_task_end(struct kunit *test, struct sp_task *st)
{
	bool gone = !st->child_lost;

	if (!st->t)
		return gone;
	complete_all(&st->go);
	if (!st->woken || wait_for_completion_timeout(&st->done, SP_TIMEOUT)) {
		kthread_stop(st->t);
	} else {
		KUNIT_FAIL(test, "a test task did not finish: left running");
		gone = false;
	}
	put_task_struct(st->t);
	st->t = NULL;
	return gone;
}

/* Let every task go on (a donor waits for its owner), then stop them. */
static void sp_world_end(struct kunit *test, struct sp_world *w)
{
	bool gone;

	if (!w)
		return;
	if (w->a.t)
		complete_all(&w->a.go);
	if (w->b.t)
		complete_all(&w->b.go);
	gone = sp_task_end(test, &w->a);
	gone = sp_task_end(test, &w->b) && gone;
	if (gone)
		kfree(w);
}

/*
 * Wait until @donor sleeps blocked on an rt_mutex: the boost of the
 * owner is done by then (task_blocks_on_rt_mutex() walks the chain
 * before the donor sleeps).
 */
static bool sp_wait_blocked(struct task_struct *donor)
{
	unsigned long end = jiffies + SP_TIMEOUT;

	do {
		if (READ_ONCE(donor->pi_blocked_on) &&
		    wait_task_inactive(donor, TASK_UNINTERRUPTIBLE))
			return true;
		usleep_range(1000, 2000);
	} while (time_before(jiffies, end));
	return false;
}

/* 5. Priority inheritance through a real rt_mutex. */

struct sp_pi_case {
	const char *desc;
	struct sp_op owner, donor;
	int prio, prio_nort;		/* the owner's, while the donor waits */
	enum sp_class cls, cls_nort;
	int own, own_nort;		/* the owner's own prio, unboosted */
};

static const struct sp_pi_case sp_pi_cases[] = {
	{ "fair owner, SCHED_FIFO 20 donor", KN(SCHED_NORMAL, 0, 0), KT(SCHED_FIFO, 20, 0),
	  79, 100, SP_RT, SP_FAIR, 120, 120 },
	{ "fair owner, nice -10 donor", KN(SCHED_NORMAL, 0, 0), KN(SCHED_NORMAL, 0, -10),
	  110, 110, SP_FAIR, SP_FAIR, 120, 120 },
	{ "fair owner, nice 10 donor: no boost", KN(SCHED_NORMAL, 0, 0),
	  KN(SCHED_NORMAL, 0, 10), 120, 120, SP_FAIR, SP_FAIR, 120, 120 },
	{ "SCHED_FIFO 10 owner, SCHED_FIFO 20 donor", KT(SCHED_FIFO, 10, 0),
	  KT(SCHED_FIFO, 20, 0), 79, 100, SP_RT, SP_FAIR, 89, 100 },
	{ "SCHED_FIFO 20 owner, SCHED_FIFO 10 donor: no boost", KT(SCHED_FIFO, 20, 0),
	  KT(SCHED_FIFO, 10, 0), 79, 100, SP_RT, SP_FAIR, 79, 100 },
	{ "SCHED_FIFO 10 owner, nice -20 donor: no boost", KT(SCHED_FIFO, 10, 0),
	  KN(SCHED_NORMAL, 0, -20), 89, 100, SP_RT, SP_FAIR, 89, 100 },
	{ "SCHED_IDLE owner, nice -10 donor", KN(SCHED_IDLE, 0, 0), KN(SCHED_NORMAL, 0, -10),
	  110, 110, SP_FAIR, SP_FAIR, 120, 120 },
};

SCHED_TEST_PARAMS(sp_pi, sp_pi_cases, sp_pi_case);

/* The class of an unboosted task of prio @prio. */
static enum sp_class sp_class_for(int prio)
{
	if (prio < 0)
		return SP_DL;
	return IS_ENABLED(CONFIG_SCHED_CLASS_RT) && prio < MAX_RT_PRIO ? SP_RT : SP_FAIR;
}

/*
 * The owner (w->a) holds the lock and waits; the donor (w->b) blocks on
 * it. False (the case failed) when something did not get where it should.
 */
static bool sp_pi_start(struct kunit *test, struct sp_world *w,
			const struct sp_op *oop, const struct sp_op *dop)
{
	w->a.lock = &w->lock;
	w->b.lock = &w->lock;
	if (sp_task_new(test, &w->a, sp_task_fn, oop, -1)) {
		KUNIT_FAIL(test, "no owner task");
		return false;
	}
	sp_wake(&w->a);
	if (!wait_for_completion_timeout(&w->a.ready, SP_TIMEOUT)) {
		KUNIT_FAIL(test, "the owner did not take the lock");
		return false;
	}
	if (sp_task_new(test, &w->b, sp_donor_fn, dop, -1)) {
		KUNIT_FAIL(test, "no donor task");
		return false;
	}
	sp_wake(&w->b);
	if (!sp_wait_blocked(w->b.t)) {
		KUNIT_FAIL(test, "the donor did not block on the lock");
		return false;
	}
	return true;
}

/* The owner lets go of the lock; the donor takes it and ends. */
static void sp_pi_end(struct kunit *test, struct sp_world *w)
{
	complete_all(&w->a.go);
	if (!wait_for_completion_timeout(&w->a.done, SP_TIMEOUT))
		KUNIT_FAIL(test, "the owner did not unlock");
	if (!wait_for_completion_timeout(&w->b.done, SP_TIMEOUT))
		KUNIT_FAIL(test, "the donor did not get the lock");
}

static void sched_policy_pi(struct kunit *test)
{
	const struct sp_pi_case *c = test->param_value;
	bool rt = IS_ENABLED(CONFIG_SCHED_CLASS_RT);
	struct sp_world *w = sp_world_new(test);
	int own = rt ? c->own : c->own_nort;
	struct task_struct *owner;

	if (w && sp_pi_start(test, w, &c->owner, &c->donor)) {
		owner = w->a.t;
		KUNIT_EXPECT_EQ_MSG(test, owner->prio, rt ? c->prio : c->prio_nort,
				    "boosted: %s", c->desc);
		KUNIT_EXPECT_EQ_MSG(test, owner->normal_prio, own, "boosted: %s", c->desc);
		KUNIT_EXPECT_EQ_MSG(test, sp_class_of(owner), rt ? c->cls : c->cls_nort,
				    "boosted: %s", c->desc);
		sp_pi_end(test, w);
		KUNIT_EXPECT_EQ_MSG(test, owner->prio, own, "after: %s", c->desc);
		KUNIT_EXPECT_EQ_MSG(test, sp_class_of(owner), sp_class_for(own),
				    "after: %s", c->desc);
	}
	sp_world_end(test, w);
}

/* With the deadline class: deadline owners and donors. */

#ifdef CONFIG_SCHED_CLASS_DL
struct sp_pi_dl_case {
	const char *desc;
	struct sp_op owner, donor;
	bool donor_se;		/* the owner runs with the donor's parameters */
	int own;		/* the owner's own prio */
};

static const struct sp_pi_dl_case sp_pi_dl_cases[] = {
	{ "fair owner, deadline donor", KN(SCHED_NORMAL, 0, 0), KN(SCHED_DEADLINE, 0, 0),
	  true, 120 },
	{ "SCHED_FIFO 10 owner, deadline donor", KN(SCHED_FIFO, 10, 0),
	  KN(SCHED_DEADLINE, 0, 0), true, 89 },
	{ "deadline owner, SCHED_FIFO 20 donor", KN(SCHED_DEADLINE, 0, 0),
	  KN(SCHED_FIFO, 20, 0), false, -1 },
	{ "deadline owner, fair donor", KN(SCHED_DEADLINE, 0, 0), KN(SCHED_NORMAL, 0, 0),
	  false, -1 },
};

static void sp_pi_deadline_one(struct kunit *test, const struct sp_pi_dl_case *c)
{
	struct sp_world *w = sp_world_new(test);
	struct task_struct *owner;

	if (w && sp_pi_start(test, w, &c->owner, &c->donor)) {
		owner = w->a.t;
		KUNIT_EXPECT_EQ_MSG(test, owner->prio, MAX_DL_PRIO - 1, "boosted: %s", c->desc);
		KUNIT_EXPECT_EQ_MSG(test, owner->normal_prio, c->own, "boosted: %s", c->desc);
		KUNIT_EXPECT_EQ_MSG(test, sp_class_of(owner), SP_DL, "boosted: %s", c->desc);
		KUNIT_EXPECT_PTR_EQ_MSG(test, owner->dl.pi_se,
					c->donor_se ? &w->b.t->dl : &owner->dl,
					"pi_se: %s", c->desc);
		sp_pi_end(test, w);
		KUNIT_EXPECT_EQ_MSG(test, owner->prio, c->own, "after: %s", c->desc);
		KUNIT_EXPECT_EQ_MSG(test, sp_class_of(owner), sp_class_for(c->own),
				    "after: %s", c->desc);
		KUNIT_EXPECT_PTR_EQ_MSG(test, owner->dl.pi_se, &owner->dl,
					"pi_se after: %s", c->desc);
	}
	sp_world_end(test, w);
}
#endif /* CONFIG_SCHED_CLASS_DL */

/* One case for the table: a skipped parameter would print as passed. */
static void sched_policy_pi_deadline(struct kunit *test)
{
#ifdef CONFIG_SCHED_CLASS_DL
	int i;

	for (i = 0; i < ARRAY_SIZE(sp_pi_dl_cases); i++)
		sp_pi_deadline_one(test, &sp_pi_dl_cases[i]);
#else
	kunit_skip(test, "no deadline class (CONFIG_SCHED_CLASS_DL=n)");
#endif
}

/* 6. Fork from a test task. */

struct sp_fork_case {
	const char *desc;
	struct sp_op parent;
	struct sp_op donor;	/* boosts the parent while it forks, if any */
	struct sp_exp rt, nort;	/* the child */
};

static const struct sp_fork_case sp_fork_cases[] = {
	{ "SCHED_FIFO 10 parent", KT(SCHED_FIFO, 10, 0), {},
	  EX(SCHED_FIFO, 89, 120, 10, SP_RT), EX_FALLBACK },
	{ "SCHED_RR 5 parent at nice -3", KT(SCHED_RR, 5, -3), {},
	  EX(SCHED_RR, 94, 120, 5, SP_RT), EX_FALLBACK },
	{ "SCHED_FIFO 10 reset-on-fork parent", KTR(SCHED_FIFO, 10, 0), {},
	  EX_START, EX_START },
	{ "nice -5 parent", KN(SCHED_NORMAL, 0, -5), {},
	  EX(SCHED_NORMAL, 115, 115, 0, SP_FAIR), EX(SCHED_NORMAL, 115, 115, 0, SP_FAIR) },
	{ "nice -5 reset-on-fork parent", KR(SCHED_NORMAL, 0, -5), {},
	  EX_START, EX_START },
	{ "nice 5 reset-on-fork parent", KR(SCHED_BATCH, 0, 5), {},
	  EX(SCHED_BATCH, 125, 125, 0, SP_FAIR), EX(SCHED_BATCH, 125, 125, 0, SP_FAIR) },
	{ "SCHED_IDLE parent", KN(SCHED_IDLE, 0, 0), {},
	  EX(SCHED_IDLE, 120, 120, 0, SP_FAIR), EX(SCHED_IDLE, 120, 120, 0, SP_FAIR) },
	{ "fair parent boosted by a SCHED_FIFO 20 donor", KN(SCHED_NORMAL, 0, 0),
	  KT(SCHED_FIFO, 20, 0), EX_START, EX_START },
	{ "SCHED_FIFO 10 parent boosted by a SCHED_FIFO 30 donor", KT(SCHED_FIFO, 10, 0),
	  KT(SCHED_FIFO, 30, 0), EX(SCHED_FIFO, 89, 120, 10, SP_RT), EX_FALLBACK },
};

SCHED_TEST_PARAMS(sp_fork, sp_fork_cases, sp_fork_case);

static void sched_policy_fork(struct kunit *test)
{
	const struct sp_fork_case *c = test->param_value;
	const struct sp_exp *e = IS_ENABLED(CONFIG_SCHED_CLASS_RT) ? &c->rt : &c->nort;
	struct sp_world *w = sp_world_new(test);
	struct sp_task *parent;

	if (!w)
		return;
	parent = &w->a;
	parent->fork = true;
	if (c->donor.how != SP_NONE) {
		if (!sp_pi_start(test, w, &c->parent, &c->donor))
			goto out;
		KUNIT_EXPECT_LE_MSG(test, parent->t->prio, w->b.t->prio,
				    "the parent is not boosted: %s", c->desc);
	} else {
		if (sp_task_new(test, parent, sp_task_fn, &c->parent, -1)) {
			KUNIT_FAIL(test, "no parent task");
			goto out;
		}
		sp_wake(parent);
	}
	complete_all(&parent->go);
	if (!wait_for_completion_timeout(&parent->done, SP_TASK_TIMEOUT + SP_TIMEOUT)) {
		KUNIT_FAIL(test, "the parent did not fork: %s", c->desc);
		goto out;
	}
	KUNIT_EXPECT_GT_MSG(test, parent->fork_ret, 0, "kernel_thread(): %s", c->desc);
	if (parent->fork_ret <= 0 || parent->child_lost) {
		KUNIT_FAIL(test, "no child looked at itself: %s", c->desc);
		goto out;
	}
	KUNIT_EXPECT_EQ_MSG(test, parent->child.policy, e->policy, "policy: %s", c->desc);
	KUNIT_EXPECT_EQ_MSG(test, parent->child.prio, e->prio, "prio: %s", c->desc);
	KUNIT_EXPECT_EQ_MSG(test, parent->child.normal_prio, e->prio,
			    "normal_prio: %s", c->desc);
	KUNIT_EXPECT_EQ_MSG(test, parent->child.static_prio, e->static_prio,
			    "static_prio: %s", c->desc);
	KUNIT_EXPECT_EQ_MSG(test, parent->child.rt_priority, e->rt_priority,
			    "rt_priority: %s", c->desc);
	KUNIT_EXPECT_EQ_MSG(test, parent->child.cls, e->cls, "class: %s", c->desc);
	KUNIT_EXPECT_FALSE_MSG(test, parent->child.reset, "reset-on-fork: %s", c->desc);
	KUNIT_EXPECT_EQ_MSG(test, parent->child_slack, (u64)SP_SLACK,
			    "timer slack: %s", c->desc);
out:
	sp_world_end(test, w);
}

/*
 * Any new task's RR time slice (here a kthread's, forked by kthreadd) is
 * sched_rr_timeslice_ms as it is at the fork: set 200 ms through the
 * sysctl's handler, create a kthread, and write the value it had back.
 * 200 ms is HZ / 5 jiffies, by hand (exact when 5 divides HZ, as for HZ
 * 100, 250, 300 and 1000; other HZ skip), not the default 100 ms that the
 * parent (kthreadd) has, so a copied slice would show.
 */
static void sched_policy_fork_rr_timeslice(struct kunit *test)
{
#if defined(CONFIG_SCHED_CLASS_RT) && defined(CONFIG_SYSCTL)
	int saved_ms = READ_ONCE(sysctl_sched_rr_timeslice);
	int saved = READ_ONCE(sched_rr_timeslice);
	struct task_struct *p;

	if (saved != RR_TIMESLICE)
		kunit_skip(test, "sched_rr_timeslice_ms is not the default: %d jiffies", saved);
	if (HZ % 5)
		kunit_skip(test, "200 ms is no whole number of jiffies at HZ %d", HZ);
	KUNIT_ASSERT_EQ(test, sched_test_rt_sysctl(test, "sched_rr_timeslice_ms", 200), 0);
	p = sched_test_kthread("sp_rr");
	KUNIT_EXPECT_EQ(test, sched_test_rt_sysctl(test, "sched_rr_timeslice_ms", saved_ms), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(sched_rr_timeslice), saved);
	KUNIT_EXPECT_EQ(test, READ_ONCE(sysctl_sched_rr_timeslice), saved_ms);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p->rt.time_slice, HZ / 5U);
	kthread_stop(p);
#elif defined(CONFIG_SCHED_CLASS_RT)
	kunit_skip(test, "needs CONFIG_SYSCTL");
#else
	kunit_skip(test, "no RT class (CONFIG_SCHED_CLASS_RT=n): no RR time slice");
#endif
}

/* 7. Queued tasks, let run on the test's CPU: the order they run in. */

/*
 * Pin the test thread to its CPU and make it SCHED_FIFO 60, above the
 * tasks it queues there; sp_unpin() puts both back. (KUnit runs each
 * case in a thread of its own, which ends with the case.)
 */
static int sp_pin(struct kunit *test)
{
	struct sched_param fifo = { .sched_priority = 60 };
	int cpu = raw_smp_processor_id();

	/* It runs on @cpu when this returns. */
	KUNIT_EXPECT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	KUNIT_EXPECT_EQ(test, sched_setscheduler_nocheck(current, SCHED_FIFO, &fifo), 0);
	return cpu;
}

static void sp_unpin(void)
{
	sched_set_normal(current, 0);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/* Let the queued tasks run: wait, at nice 0, for each to say it ran. */
static void sp_let_run(struct kunit *test, struct sp_world *w)
{
	sched_set_normal(current, 0);
	if (!wait_for_completion_timeout(&w->a.ready, SP_TIMEOUT))
		KUNIT_FAIL(test, "the first task did not run");
	if (!wait_for_completion_timeout(&w->b.ready, SP_TIMEOUT))
		KUNIT_FAIL(test, "the second task did not run");
}

/* Two test tasks made what @op says, queued on @cpu in the order a, b. */
static bool sp_queue_two(struct kunit *test, struct sp_world *w, const struct sp_op *op,
			 int cpu)
{
	w->a.seq = &w->seq;
	w->b.seq = &w->seq;
	if (sp_task_new(test, &w->a, sp_task_fn, op, cpu) ||
	    sp_task_new(test, &w->b, sp_task_fn, op, cpu)) {
		KUNIT_FAIL(test, "no test tasks");
		return false;
	}
	sp_wake(&w->a);
	sp_wake(&w->b);
	KUNIT_EXPECT_TRUE(test, task_on_rq_queued(w->a.t));
	KUNIT_EXPECT_TRUE(test, task_on_rq_queued(w->b.t));
	return true;
}

/*
 * Two tasks made what @start says, a then b, queued behind the test
 * thread on its CPU; b is changed by @change[0..n-1] while queued, then
 * both run: b must run first, and stay queued in the RT class before.
 */
static void sp_run_order(struct kunit *test, const struct sp_op *start,
			 const struct sp_op *change, int n)
{
	struct sp_world *w;
	int cpu, i;

	if (!IS_ENABLED(CONFIG_SCHED_CLASS_RT))
		kunit_skip(test, "no RT class (CONFIG_SCHED_CLASS_RT=n): no order to keep");
	w = sp_world_new(test);
	if (!w)
		return;
	cpu = sp_pin(test);
	if (sp_queue_two(test, w, start, cpu)) {
		for (i = 0; i < n; i++)
			KUNIT_EXPECT_EQ(test, sp_do(w->b.t, &change[i]), 0);
		KUNIT_EXPECT_TRUE(test, task_on_rq_queued(w->b.t));
		KUNIT_EXPECT_EQ(test, sp_class_of(w->b.t), SP_RT);
		sp_let_run(test, w);
		KUNIT_EXPECT_EQ(test, w->b.ran, 1);
		KUNIT_EXPECT_EQ(test, w->a.ran, 2);
	}
	sp_unpin();
	sp_world_end(test, w);
}

/*
 * Two SCHED_FIFO 10 tasks; b is raised to 20 and put back to 10. A task
 * whose priority goes down is queued at the head of its new level
 * (ENQUEUE_HEAD), so b runs first.
 */
static void sched_policy_run_deboost_order(struct kunit *test)
{
	const struct sp_op fifo10 = KN(SCHED_FIFO, 10, 0);
	const struct sp_op change[] = { KN(SCHED_FIFO, 20, 0), KN(SCHED_FIFO, 10, 0) };

	sp_run_order(test, &fifo10, change, ARRAY_SIZE(change));
}

/*
 * Two fair tasks; b is made SCHED_FIFO 10 while it is queued: it moves to
 * the RT class, still queued, and runs first.
 */
static void sched_policy_run_class_change(struct kunit *test)
{
	const struct sp_op normal = KN(SCHED_NORMAL, 0, 0);
	const struct sp_op change[] = { KN(SCHED_FIFO, 10, 0) };

	sp_run_order(test, &normal, change, ARRAY_SIZE(change));
}

/*
 * A deadline boost of a queued task. A fair owner spins on the test CPU,
 * queued behind whatever runs there, when a deadline donor blocks on its
 * lock: rt_mutex_setprio() queues it again with ENQUEUE_REPLENISH, so it
 * runs at once on the donor's parameters, its deadline the donor's
 * relative deadline (500 ms) from the boost and its runtime the donor's
 * (10 ms), less what it ran since.
 */
#ifdef CONFIG_SCHED_CLASS_DL
static int sp_spinner_fn(void *data)
{
	struct sp_task *st = data;
	unsigned long end;

	rt_mutex_lock(st->lock);
	complete_all(&st->ready);
	end = jiffies + SP_TASK_TIMEOUT;
	while (READ_ONCE(current->prio) >= 0 && time_before(jiffies, end))
		cond_resched();
	if (current->prio < 0) {
		st->now = sched_clock_cpu(raw_smp_processor_id());
		st->runtime = current->dl.runtime;
		st->deadline = current->dl.deadline;
		st->pi_se = current->dl.pi_se;
		st->boosted = true;
	}
	wait_for_completion_timeout(&st->go, SP_TASK_TIMEOUT);
	rt_mutex_unlock(st->lock);
	complete_all(&st->done);
	sp_wait_stop();
	return 0;
}

static void sched_policy_pi_deadline_replenish(struct kunit *test)
{
	const struct sched_attr dl = {
		.size = sizeof(dl), .sched_policy = SCHED_DEADLINE,
		.sched_runtime = 10 * ST_MS, .sched_deadline = 500 * ST_MS,
		.sched_period = 1000 * ST_MS,
	};
	const struct sp_op normal = KN(SCHED_NORMAL, 0, 0);
	const struct sp_op none = {};
	struct sp_world *w = sp_world_new(test);
	struct sp_task *owner, *donor;
	int cpu;

	if (!w)
		return;
	owner = &w->a;
	donor = &w->b;
	owner->lock = &w->lock;
	donor->lock = &w->lock;
	cpu = sp_pin(test);
	if (sp_task_new(test, owner, sp_spinner_fn, &normal, cpu)) {
		KUNIT_FAIL(test, "no owner task");
		goto out;
	}
	sp_wake(owner);
	if (!wait_for_completion_timeout(&owner->ready, SP_TIMEOUT)) {
		KUNIT_FAIL(test, "the owner did not take the lock");
		goto out;
	}
	if (sp_task_new(test, donor, sp_donor_fn, &none, cpu) ||
	    sched_setattr_nocheck(donor->t, &dl)) {
		KUNIT_FAIL(test, "no deadline donor");
		goto out;
	}
	sp_wake(donor);
	if (!sp_wait_blocked(donor->t)) {
		KUNIT_FAIL(test, "the donor did not block on the lock");
		goto out;
	}
	KUNIT_EXPECT_TRUE_MSG(test, READ_ONCE(owner->boosted), "the owner never ran boosted");
	if (owner->boosted) {
		KUNIT_EXPECT_PTR_EQ(test, owner->pi_se, (void *)&donor->t->dl);
		KUNIT_EXPECT_GT(test, owner->runtime, 0LL);
		KUNIT_EXPECT_LE(test, owner->runtime, 10LL * ST_MS);
		KUNIT_EXPECT_GT(test, owner->deadline, owner->now);
		KUNIT_EXPECT_LE(test, owner->deadline, owner->now + 500 * ST_MS);
	}
	sp_pi_end(test, w);
out:
	sp_unpin();
	sp_world_end(test, w);
}
#else
static void sched_policy_pi_deadline_replenish(struct kunit *test)
{
	kunit_skip(test, "no deadline class (CONFIG_SCHED_CLASS_DL=n)");
}
#endif /* CONFIG_SCHED_CLASS_DL */

/*
 * With RT_GROUP_SCHED, user space may not make a task SCHED_FIFO or
 * SCHED_RR in a task group that has no RT runtime, but an autogroup (made
 * by setsid()) is exempt: it has none of its own, its RT tasks run in the
 * root group (autogroup_create()). A test task is moved to a new autogroup
 * and made SCHED_FIFO 10 by a privileged caller, then put back. Debian's
 * kernel starts with autogroups off (kernel.sched_autogroup_enabled = 0):
 * the case turns them on for its duration, as the sysctl would.
 */
#if defined(CONFIG_SCHED_AUTOGROUP) && defined(CONFIG_RT_GROUP_SCHED)
#define SP_AUTOGROUP_SYSCTL	"sys/kernel/sched_autogroup_enabled"

/* The test task made SCHED_FIFO 10 in an autogroup of its own, and put back. */
static void sp_autogroup_one(struct kunit *test, struct task_struct *p)
{
	const struct sp_op fifo = { .how = SP_SETSCHED, .policy = SCHED_FIFO, .prio = 10 };
	const struct sp_op normal = KN(SCHED_NORMAL, 0, 0);
	const struct sp_exp rt = EX(SCHED_FIFO, 89, 120, 10, SP_RT);
	const struct sp_exp start = EX_START;
	struct task_group *tg;

	sched_autogroup_create_attach(p);
	tg = task_group(p);
	KUNIT_EXPECT_TRUE(test, task_group_is_autogroup(tg));
	KUNIT_EXPECT_EQ(test, tg->rt_bandwidth.rt_runtime, (u64)0);
	if (task_group_is_autogroup(tg)) {
		KUNIT_EXPECT_EQ(test, sp_do(p, &fifo), 0);
		sp_expect_task(test, p, &rt, "SCHED_FIFO in an autogroup");
		KUNIT_EXPECT_EQ(test, sp_do(p, &normal), 0);
		sp_expect_task(test, p, &start, "back to SCHED_NORMAL");
	}
	sched_autogroup_detach(p);
	KUNIT_EXPECT_PTR_EQ(test, task_group(p), &root_task_group);
}

static void sched_policy_autogroup(struct kunit *test)
{
	const struct sp_op normal = KN(SCHED_NORMAL, 0, 0);
	struct sp_world *w = sp_world_new(test);
	char was[8], now[8];
	struct sched_test_user u;
	struct vfsmount *proc;

	if (!w)
		return;
	proc = sched_test_mount("proc");
	if (IS_ERR(proc)) {
		KUNIT_FAIL(test, "no procfs: %ld", PTR_ERR(proc));
		goto out;
	}
	/* The sysctl reads as "0\n" or "1\n": @was and @now hold any of it. */
	if (sched_test_user_map(&u, sizeof(was))) {
		KUNIT_FAIL(test, "no user memory");
		goto unmount;
	}
	if (sched_test_read(proc, SP_AUTOGROUP_SYSCTL, &u, was) <= 0 ||
	    sched_test_write(proc, SP_AUTOGROUP_SYSCTL, &u, "1\n") != 2) {
		KUNIT_FAIL(test, "cannot turn autogroups on");
		goto unmap;
	}
	if (sp_task_new(test, &w->a, sp_task_fn, &normal, -1))
		KUNIT_FAIL(test, "no test task");
	else
		sp_autogroup_one(test, w->a.t);
	KUNIT_EXPECT_EQ(test, sched_test_write(proc, SP_AUTOGROUP_SYSCTL, &u, was),
			(ssize_t)strlen(was));
	KUNIT_EXPECT_GT(test, sched_test_read(proc, SP_AUTOGROUP_SYSCTL, &u, now), 0L);
	KUNIT_EXPECT_STREQ(test, now, was);
unmap:
	sched_test_user_unmap(&u);
unmount:
	kern_unmount(proc);
out:
	sp_world_end(test, w);
}
#else
static void sched_policy_autogroup(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_SCHED_AUTOGROUP and CONFIG_RT_GROUP_SCHED");
}
#endif

static struct kunit_case sp_test_cases[] = {
	KUNIT_CASE_PARAM(sched_policy_request, sp_request_gen_params),
	KUNIT_CASE_PARAM(sched_policy_priority_range, sp_range_gen_params),
	KUNIT_CASE(sched_policy_rr_interval),
	KUNIT_CASE(sched_policy_running_bw),
	KUNIT_CASE(sched_policy_autogroup),
	KUNIT_CASE_PARAM(sched_policy_helper, sp_helper_gen_params),
	KUNIT_CASE_PARAM(sched_policy_nice_round_trip, sp_trip_gen_params),
	KUNIT_CASE_PARAM(sched_policy_attr_syscalls, sp_sys_gen_params),
	KUNIT_CASE_PARAM(sched_policy_unprivileged, sp_user_gen_params),
	KUNIT_CASE_PARAM(sched_policy_pi, sp_pi_gen_params),
	KUNIT_CASE(sched_policy_pi_deadline),
	KUNIT_CASE_PARAM(sched_policy_fork, sp_fork_gen_params),
	KUNIT_CASE(sched_policy_fork_rr_timeslice),
	KUNIT_CASE(sched_policy_run_deboost_order),
	KUNIT_CASE(sched_policy_run_class_change),
	KUNIT_CASE(sched_policy_pi_deadline_replenish),
	{}
};

static struct kunit_suite sp_test_suite = {
	.name = "sched_policy",
	.suite_init = sched_test_global_suite_init,
	.init = sp_init,
	.exit = sp_exit,
	.test_cases = sp_test_cases,
};

kunit_test_suite(sp_test_suite);
