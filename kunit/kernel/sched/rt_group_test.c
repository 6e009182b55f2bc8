// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the RT group bandwidth constraints (CONFIG_RT_GROUP_SCHED):
 * the walk of tg_rt_schedulable() over the task-group tree done by
 * __rt_schedulable(), reached through sched_group_set_rt_runtime(),
 * sched_group_set_rt_period() and the sched_rt_period_us /
 * sched_rt_runtime_us sysctl handler, and sched_rt_can_attach().
 *
 * The groups are real task groups, made and torn down the way autogroups
 * are (sched_create_group() + sched_online_group(), sched_release_group()
 * + sched_destroy_group()), without the cgroup file system.
 *
 * Such a group has no css, so tg_has_rt_tasks(), which iterates the tasks
 * of a group's css, must never run on one: it runs when a group's runtime
 * goes from non-zero to 0. No case does that to a test group; the -EBUSY
 * rule ("do not take the runtime away from RT tasks") is checked on the
 * root group instead, whose css is the real root cgroup, with a test
 * kthread made SCHED_FIFO in it.
 *
 * Every case restores the root group's bandwidth and the sysctls through
 * the kernel's own paths; the last case checks that the root group, the
 * default bandwidth, the sysctls and the deadline bandwidth they feed are
 * as the suite found them.
 */
#include "sched_test_util.h"

#define RTG_US		ST_US
#define RTG_PERIOD_US	((long)ST_RT_PERIOD_US)
#define RTG_MAX_GROUPS	8

/* Per CPU: the root group's rt_rq, and the deadline state the sysctls feed. */
struct rtg_cpu {
	u64 root_rq_runtime;
	u64 dl_bw;
	u64 dl_bw_ratio;
	u64 dl_extra_bw;
};

struct rtg_state {
	unsigned int period_us;
	int runtime_us;
	u64 def_runtime;
	s64 def_period;
	u64 root_runtime;
	s64 root_period;
	struct rtg_cpu *cpu;	/* nr_cpu_ids entries */
};

static struct rtg_state rtg_suite_start;

static void rtg_save(struct rtg_state *s)
{
	int cpu;

	s->period_us = READ_ONCE(sysctl_sched_rt_period);
	s->runtime_us = READ_ONCE(sysctl_sched_rt_runtime);
	raw_spin_lock_irq(&def_rt_bandwidth.rt_runtime_lock);
	s->def_runtime = def_rt_bandwidth.rt_runtime;
	s->def_period = ktime_to_ns(def_rt_bandwidth.rt_period);
	raw_spin_unlock_irq(&def_rt_bandwidth.rt_runtime_lock);
	mutex_lock(&rt_constraints_mutex);
	s->root_runtime = root_task_group.rt_bandwidth.rt_runtime;
	s->root_period = ktime_to_ns(root_task_group.rt_bandwidth.rt_period);
	for_each_possible_cpu(cpu) {
		struct rt_rq *rt_rq = root_task_group.rt_rq[cpu];
		struct rq *rq = cpu_rq(cpu);
		struct rtg_cpu *c = &s->cpu[cpu];
		struct dl_bw *dl_b;
		struct rq_flags rf;

		raw_spin_lock_irq(&rt_rq->rt_runtime_lock);
		c->root_rq_runtime = rt_rq->rt_runtime;
		raw_spin_unlock_irq(&rt_rq->rt_runtime_lock);
		rq_lock_irqsave(rq, &rf);
		dl_b = dl_bw_of(cpu);
		raw_spin_lock(&dl_b->lock);
		c->dl_bw = dl_b->bw;
		c->dl_bw_ratio = rq->dl.bw_ratio;
		c->dl_extra_bw = rq->dl.extra_bw;
		raw_spin_unlock(&dl_b->lock);
		rq_unlock_irqrestore(rq, &rf);
	}
	mutex_unlock(&rt_constraints_mutex);
}

/* Also called from .exit, where an assertion must not abort. */
static void rtg_expect_state(struct kunit *test, const struct rtg_state *want)
{
	struct rtg_state *got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	int cpu;

	if (got)
		got->cpu = kunit_kcalloc(test, nr_cpu_ids, sizeof(*got->cpu), GFP_KERNEL);
	if (!got || !got->cpu) {
		KUNIT_FAIL(test, "no memory to check the state");
		return;
	}
	rtg_save(got);
	KUNIT_EXPECT_EQ(test, got->period_us, want->period_us);
	KUNIT_EXPECT_EQ(test, got->runtime_us, want->runtime_us);
	KUNIT_EXPECT_EQ(test, got->def_runtime, want->def_runtime);
	KUNIT_EXPECT_EQ(test, got->def_period, want->def_period);
	KUNIT_EXPECT_EQ(test, got->root_runtime, want->root_runtime);
	KUNIT_EXPECT_EQ(test, got->root_period, want->root_period);
	for_each_possible_cpu(cpu) {
		const struct rtg_cpu *g = &got->cpu[cpu], *w = &want->cpu[cpu];

		KUNIT_EXPECT_EQ_MSG(test, g->root_rq_runtime, w->root_rq_runtime,
				    "CPU%d", cpu);
		KUNIT_EXPECT_EQ_MSG(test, g->dl_bw, w->dl_bw, "CPU%d", cpu);
		KUNIT_EXPECT_EQ_MSG(test, g->dl_bw_ratio, w->dl_bw_ratio, "CPU%d", cpu);
		KUNIT_EXPECT_EQ_MSG(test, g->dl_extra_bw, w->dl_extra_bw, "CPU%d", cpu);
	}
}

struct rtg_ctx {
	struct rtg_state saved;
	struct task_group *groups[RTG_MAX_GROUPS];
	int nr_groups;
	struct task_struct *rt_kthread;
	/* What the exit must put back. */
	bool sysctl_changed;
	bool root_changed;
};

static int rtg_sysctl(struct kunit *test, const char *name, long value)
{
	struct rtg_ctx *ctx = test->priv;

	ctx->sysctl_changed = true;
	return sched_test_rt_sysctl(test, name, value);
}

static int rtg_set_root(struct kunit *test, u64 period, u64 runtime)
{
	struct rtg_ctx *ctx = test->priv;

	ctx->root_changed = true;
	return tg_set_rt_bandwidth(&root_task_group, period, runtime);
}

static struct task_group *rtg_group(struct kunit *test, struct task_group *parent)
{
	struct rtg_ctx *ctx = test->priv;
	struct task_group *tg;

	KUNIT_ASSERT_LT(test, ctx->nr_groups, RTG_MAX_GROUPS);
	tg = sched_create_group(parent);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tg);
	sched_online_group(tg, parent);
	ctx->groups[ctx->nr_groups++] = tg;
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(tg), 0L);
	KUNIT_EXPECT_EQ(test, sched_group_rt_period(tg), RTG_PERIOD_US);
	return tg;
}

/* The root group and the sysctls at 100%: runtime == period is allowed. */
static void rtg_full_bandwidth(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, rtg_sysctl(test, "sched_rt_runtime_us", RTG_PERIOD_US), 0);
	KUNIT_ASSERT_EQ(test, rtg_set_root(test, RTG_PERIOD_US * RTG_US,
					   RTG_PERIOD_US * RTG_US), 0);
}

/* A SCHED_FIFO kthread in the root group, created but never woken. */
static struct task_struct *rtg_rt_kthread(struct kunit *test)
{
	struct rtg_ctx *ctx = test->priv;
	struct task_struct *p = sched_test_kthread("rtg_test");

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	ctx->rt_kthread = p;
	sched_set_fifo(p);
	KUNIT_ASSERT_TRUE(test, rt_task(p));
	return p;
}

/* Does the system hold deadline bandwidth (or is there no memory to tell)? */
static bool rtg_dl_busy(struct kunit *test)
{
	struct sched_test_dl dl;

	if (sched_test_dl_alloc(test, &dl))
		return true;
	sched_test_dl_read(&dl);
	return sched_test_dl_busy_cpu(&dl) >= 0;
}

static int rtg_init(struct kunit *test)
{
	struct rtg_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	ctx->saved.cpu = kunit_kcalloc(test, nr_cpu_ids, sizeof(*ctx->saved.cpu),
				       GFP_KERNEL);
	if (!ctx->saved.cpu)
		return -ENOMEM;
	rtg_save(&ctx->saved);
	test->priv = ctx;
	sched_test_require_default_rt_sysctls(test);
	/* The expected values assume the root group's default bandwidth. */
	if (ctx->saved.root_runtime != (u64)ST_RT_RUNTIME_US * RTG_US ||
	    ctx->saved.root_period != (s64)ST_RT_PERIOD_US * RTG_US)
		kunit_skip(test, "the root task group has %llu ns every %lld ns, not the default",
			   ctx->saved.root_runtime, ctx->saved.root_period);
	/*
	 * The sysctl handler checks the deadline bandwidth before the RT
	 * rules: with some admitted, rows would see -EBUSY instead.
	 */
	if (rtg_dl_busy(test))
		kunit_skip(test, "the system holds deadline bandwidth");
	return 0;
}

static void rtg_exit(struct kunit *test)
{
	struct rtg_ctx *ctx = test->priv;
	const struct rtg_state *s;

	/* .exit runs even when .init failed. */
	if (!ctx)
		return;
	s = &ctx->saved;
	if (ctx->rt_kthread)
		kthread_stop(ctx->rt_kthread);
	/* Children were made after their parents: release them first. */
	while (ctx->nr_groups) {
		struct task_group *tg = ctx->groups[--ctx->nr_groups];

		sched_release_group(tg);
		sched_destroy_group(tg);
	}
	/*
	 * Only what the case changed: every write of the sysctls resets
	 * deadline state too (sched_dl_do_global()). With the global limit
	 * off (-1) every root setting a case may have left can go back, then
	 * the period, then the runtime, each through the checks a write to
	 * /proc would pass.
	 */
	if (ctx->sysctl_changed || ctx->root_changed) {
		KUNIT_EXPECT_EQ(test, rtg_sysctl(test, "sched_rt_runtime_us", -1), 0);
		KUNIT_EXPECT_EQ(test, rtg_set_root(test, s->root_period, s->root_runtime), 0);
		KUNIT_EXPECT_EQ(test, rtg_sysctl(test, "sched_rt_period_us", s->period_us), 0);
		KUNIT_EXPECT_EQ(test, rtg_sysctl(test, "sched_rt_runtime_us", s->runtime_us), 0);
	}
	rtg_expect_state(test, s);
}

static int rtg_suite_init(struct kunit_suite *suite)
{
	rtg_suite_start.cpu = kcalloc(nr_cpu_ids, sizeof(*rtg_suite_start.cpu),
				      GFP_KERNEL);
	if (!rtg_suite_start.cpu)
		return -ENOMEM;
	rtg_save(&rtg_suite_start);
	return 0;
}

static void rtg_suite_exit(struct kunit_suite *suite)
{
	kfree(rtg_suite_start.cpu);
	rtg_suite_start.cpu = NULL;
}

/* Runtime against period, on a group under a root group at 100%. */
struct rtg_runtime_case {
	const char *desc;
	long runtime_us;	/* -1: RUNTIME_INF */
	int ret;
};

static const struct rtg_runtime_case rtg_runtime_cases[] = {
	{ "runtime 0", 0, 0 },
	{ "runtime below the period", RTG_PERIOD_US - 1, 0 },
	{ "runtime equal to the period", RTG_PERIOD_US, 0 },
	{ "runtime one microsecond above the period", RTG_PERIOD_US + 1, -EINVAL },
	{ "RUNTIME_INF under a root group at 100%", -1, 0 },
};

SCHED_TEST_PARAMS(rtg_runtime, rtg_runtime_cases, rtg_runtime_case);

static void sched_rt_group_runtime_vs_period(struct kunit *test)
{
	const struct rtg_runtime_case *c = test->param_value;
	struct task_group *tg;
	int cpu;

	rtg_full_bandwidth(test);
	tg = rtg_group(test, &root_task_group);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, c->runtime_us), c->ret);
	if (c->ret) {
		KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(tg), 0L);
		return;
	}
	/* Read back in microseconds, -1 for RUNTIME_INF; every rt_rq follows. */
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(tg), c->runtime_us);
	KUNIT_EXPECT_EQ(test, sched_group_rt_period(tg), RTG_PERIOD_US);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, tg->rt_rq[cpu]->rt_runtime,
				    c->runtime_us < 0 ? RUNTIME_INF :
				    (u64)c->runtime_us * RTG_US, "CPU%d", cpu);
}

/*
 * A three-level tree under the root group (95% of 1 s by default). The
 * groups' periods are 2^20 us, so that a runtime in microseconds is its
 * bandwidth in BW_SHIFT fixed point exactly: the sums below are exact.
 *
 *   root 950000 us / 1 s
 *   `- a 524288 us (0.5)
 *      |- b1 200000 us
 *      |  `- c  (set by the cases)
 *      `- b2 (set by the cases)
 */
#define RTG_EXACT_PERIOD_US	BIT(BW_SHIFT)

struct rtg_tree {
	struct task_group *a, *b1, *b2, *c;
};

static struct task_group *rtg_exact_group(struct kunit *test,
					  struct task_group *parent)
{
	struct task_group *tg = rtg_group(test, parent);

	KUNIT_ASSERT_EQ(test, sched_group_set_rt_period(tg, RTG_EXACT_PERIOD_US), 0);
	return tg;
}

static void rtg_build_tree(struct kunit *test, struct rtg_tree *t)
{
	t->a = rtg_exact_group(test, &root_task_group);
	t->b1 = rtg_exact_group(test, t->a);
	t->b2 = rtg_exact_group(test, t->a);
	t->c = rtg_exact_group(test, t->b1);
	KUNIT_ASSERT_EQ(test, sched_group_set_rt_runtime(t->a, 524288), 0);
	KUNIT_ASSERT_EQ(test, sched_group_set_rt_runtime(t->b1, 200000), 0);
}

static void sched_rt_group_children_sum(struct kunit *test)
{
	struct rtg_tree t;

	rtg_build_tree(test, &t);

	/* b1 + b2 against a: equal is fine, one unit more is not. */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(t.b2, 324289), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(t.b2), 0L);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(t.b2, 324288), 0);

	/* The walk reaches the grandchild: c against b1. */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(t.c, 200001), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(t.c, 200000), 0);

	/* Lowering a parent below its children's sum changes nothing. */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(t.a, 524287), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(t.a), 524288L);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(t.b1, 199999), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(t.b1), 200000L);

	/* The sum is of ratios: doubling b2's period halves its share. */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_period(t.b2, 2 * RTG_EXACT_PERIOD_US), 0);
	KUNIT_EXPECT_EQ(test, sched_group_rt_period(t.b2), 2L * RTG_EXACT_PERIOD_US);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(t.b1, 362145), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(t.b1, 362144), 0);

	/*
	 * Shortening a's period raises its share, up to the root group's and
	 * the global 996147 (95%): 524288 us per 551882 us is 996147.
	 */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_period(t.a, 551882), 0);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_period(t.a, 551881), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_rt_period(t.a), 551882L);
}

/* One group's own rules, checked by tg_rt_schedulable() alone. */
static int rtg_check_one(struct task_group *tg, u64 period_us, u64 runtime_us)
{
	struct rt_schedulable_data d = {
		.tg = tg,
		.rt_period = period_us * RTG_US,
		.rt_runtime = runtime_us * RTG_US,
	};
	int ret;

	mutex_lock(&rt_constraints_mutex);
	rcu_read_lock();
	ret = tg_rt_schedulable(tg, &d);
	rcu_read_unlock();
	mutex_unlock(&rt_constraints_mutex);
	return ret;
}

static void sched_rt_group_global_limit(struct kunit *test)
{
	struct rtg_ctx *ctx = test->priv;
	struct task_group *tg = rtg_group(test, &root_task_group);
	struct rtg_tree t;

	/* The group itself, against 950000/1000000 alone. */
	KUNIT_EXPECT_EQ(test, rtg_check_one(tg, RTG_PERIOD_US, 950000), 0);
	KUNIT_EXPECT_EQ(test, rtg_check_one(tg, RTG_PERIOD_US, 950001), -EINVAL);
	/* 1900001 us per 2 s rounds down to 996147: the limit is on the ratio. */
	KUNIT_EXPECT_EQ(test, rtg_check_one(tg, 2 * RTG_PERIOD_US, 1900000), 0);
	KUNIT_EXPECT_EQ(test, rtg_check_one(tg, 2 * RTG_PERIOD_US, 1900001), 0);
	KUNIT_EXPECT_EQ(test, rtg_check_one(tg, 2 * RTG_PERIOD_US, 1900002), -EINVAL);
	/* Through the full walk too, where the root group also objects. */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, 950001), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, 950000), 0);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, 100000), 0);

	/* The global walk with a tree in place. */
	rtg_build_tree(test, &t);
	mutex_lock(&rt_constraints_mutex);
	KUNIT_EXPECT_EQ(test, __rt_schedulable(NULL, 0, 0), 0);
	mutex_unlock(&rt_constraints_mutex);

	/*
	 * The root group is part of the walk: a global limit below its 95% is
	 * refused, and the sysctl is put back.
	 */
	KUNIT_EXPECT_EQ(test, rtg_sysctl(test, "sched_rt_runtime_us", 940000), -EINVAL);
	KUNIT_EXPECT_EQ(test, READ_ONCE(sysctl_sched_rt_runtime), ctx->saved.runtime_us);
}

/* No root runtime 0, no period 0, no runtime past max_rt_runtime. */
static void sched_rt_group_bad_settings(struct kunit *test)
{
	struct task_group *tg = rtg_group(test, &root_task_group);
	/* Long enough that only the max_rt_runtime bound can object. */
	u64 period = 4 * max_rt_runtime;

	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(&root_task_group, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(&root_task_group), 950000L);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_period(&root_task_group, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_period(tg, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_rt_period(tg), RTG_PERIOD_US);

	/* In nanoseconds: sched_group_set_rt_runtime() takes a long. */
	KUNIT_ASSERT_EQ(test, tg_set_rt_bandwidth(tg, period, 0), 0);
	KUNIT_EXPECT_EQ(test, tg_set_rt_bandwidth(tg, period, max_rt_runtime + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, tg->rt_bandwidth.rt_runtime, 0ULL);
	KUNIT_EXPECT_EQ(test, tg_set_rt_bandwidth(tg, period, max_rt_runtime), 0);
	KUNIT_EXPECT_EQ(test, tg->rt_bandwidth.rt_runtime, max_rt_runtime);
}

/* Does the root task group hold a task in an RT class? The model, by hand. */
static bool rtg_root_has_rt_task(void)
{
	struct task_struct *g, *t;
	bool found = false;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (rt_task(t) && task_group(t) == &root_task_group) {
			found = true;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

static int rtg_root_runtime_zero(void)
{
	int ret;

	mutex_lock(&rt_constraints_mutex);
	ret = __rt_schedulable(&root_task_group, (u64)RTG_PERIOD_US * RTG_US, 0);
	mutex_unlock(&rt_constraints_mutex);
	return ret;
}

/*
 * Taking all runtime from a group with RT tasks: -EBUSY (root group, see
 * top). On SMP the root group holds RT tasks already (the stopper
 * threads, migration/N, are SCHED_FIFO): there the case shows the rule,
 * on UP it also shows that the test kthread is what makes the difference.
 */
static void sched_rt_group_busy(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rtg_root_runtime_zero(),
			rtg_root_has_rt_task() ? -EBUSY : 0);
	rtg_rt_kthread(test);
	KUNIT_EXPECT_TRUE(test, rtg_root_has_rt_task());
	KUNIT_EXPECT_EQ(test, rtg_root_runtime_zero(), -EBUSY);
	/* The public path refuses the root group's 0 before it gets there. */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(&root_task_group, 0), -EINVAL);
}

/* sched_rt_runtime_us = -1: no throttling, so no -EBUSY to protect it. */
static void sched_rt_group_busy_unlimited(struct kunit *test)
{
	rtg_rt_kthread(test);
	KUNIT_ASSERT_EQ(test, rtg_sysctl(test, "sched_rt_runtime_us", -1), 0);
	KUNIT_EXPECT_FALSE(test, rt_bandwidth_enabled());
	KUNIT_EXPECT_EQ(test, rtg_root_runtime_zero(), 0);
}

/*
 * RUNTIME_INF in the walk: a group may have it only where its parent
 * and the global limit allow a whole CPU, and it counts as a whole CPU
 * in its parent's sum.
 */
static void sched_rt_group_runtime_inf(struct kunit *test)
{
	struct task_group *a, *b1, *b2;

	rtg_full_bandwidth(test);
	a = rtg_group(test, &root_task_group);
	b1 = rtg_group(test, a);
	b2 = rtg_group(test, a);
	/* Under a parent with 0: not even RUNTIME_INF. */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(b1, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(a, -1), 0);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(b1, -1), 0);
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(b1), -1L);
	/* b1 takes the whole of a: nothing left for b2. */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(b2, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(b1, RTG_PERIOD_US / 2), 0);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(b2, RTG_PERIOD_US / 2), 0);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(b2, RTG_PERIOD_US / 2 + 1),
			-EINVAL);
}

/* A global runtime of RUNTIME_INF: groups up to a whole CPU, or RUNTIME_INF. */
static void sched_rt_group_global_unlimited(struct kunit *test)
{
	struct task_group *tg = rtg_group(test, &root_task_group);

	/* 95% by default: a whole CPU is refused. */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, RTG_PERIOD_US), -EINVAL);
	KUNIT_ASSERT_EQ(test, rtg_sysctl(test, "sched_rt_runtime_us", -1), 0);
	KUNIT_ASSERT_EQ(test, rtg_set_root(test, RTG_PERIOD_US * RTG_US, RUNTIME_INF), 0);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, RTG_PERIOD_US), 0);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, -1), 0);
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(tg), -1L);
	/* Still not more than its period. */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, RTG_PERIOD_US + 1), -EINVAL);
}

/*
 * The microsecond setters refuse values whose conversion to nanoseconds
 * would overflow 64 bits, before tg_set_rt_bandwidth() sees them.
 */
static void sched_rt_group_overflow_guards(struct kunit *test)
{
	struct task_group *tg = rtg_group(test, &root_task_group);
	u64 max_us = U64_MAX / NSEC_PER_USEC;

	KUNIT_EXPECT_EQ(test, sched_group_set_rt_period(tg, max_us + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_period(tg, U64_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_rt_period(tg), RTG_PERIOD_US);
#if BITS_PER_LONG == 64
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, (long)max_us + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, LONG_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, tg->rt_bandwidth.rt_runtime, 0ULL);
#endif
}

static void sched_rt_group_can_attach(struct kunit *test)
{
	struct task_group *none = rtg_group(test, &root_task_group);
	struct task_group *some = rtg_group(test, &root_task_group);
	struct task_struct *rt = rtg_rt_kthread(test);

	KUNIT_ASSERT_EQ(test, sched_group_set_rt_runtime(some, 1000), 0);
	KUNIT_EXPECT_EQ(test, sched_rt_can_attach(none, rt), 0);
	KUNIT_EXPECT_EQ(test, sched_rt_can_attach(some, rt), 1);
	KUNIT_EXPECT_EQ(test, sched_rt_can_attach(none, current), 1);
}

/*
 * The sched_rt_period_us / sched_rt_runtime_us handler. Rows marked
 * "(bounds)" are refused by proc_dointvec_minmax() before the handler's
 * own rules; the others by the handler: runtime above period
 * (sched_rt_global_validate()), and a limit below the root group's RT
 * bandwidth (the RT walk). The handler's other rule, runtime above
 * max_rt_runtime (2^44 - 1 ns, about 17592 s), cannot be reached: the int
 * sysctl stops at 2147483647 us. sched_dl_bw_global_limit has the
 * deadline refusal (-EBUSY).
 */
struct rtg_sysctl_case {
	const char *desc;
	const char *name;
	long value;
	int ret;
};

static const struct rtg_sysctl_case rtg_sysctl_cases[] = {
	{ "runtime one above the period", "sched_rt_runtime_us", 1000001, -EINVAL },
	{ "runtime equal to the period", "sched_rt_runtime_us", 1000000, 0 },
	{ "runtime -1 turns throttling off", "sched_rt_runtime_us", -1, 0 },
	{ "runtime -2 (bounds)", "sched_rt_runtime_us", -2, -EINVAL },
	{ "runtime 0, below the root group's", "sched_rt_runtime_us", 0, -EINVAL },
	{ "runtime 940000, below the root group's", "sched_rt_runtime_us",
	  940000, -EINVAL },
	{ "period 0 (bounds)", "sched_rt_period_us", 0, -EINVAL },
	{ "period one below the runtime", "sched_rt_period_us", 949999, -EINVAL },
	{ "period equal to the runtime", "sched_rt_period_us", 950000, 0 },
	{ "period 2 s, below the root group's ratio", "sched_rt_period_us",
	  2000000, -EINVAL },
};

SCHED_TEST_PARAMS(rtg_sysctl, rtg_sysctl_cases, rtg_sysctl_case);

static void sched_rt_group_sysctl(struct kunit *test)
{
	const struct rtg_sysctl_case *c = test->param_value;
	bool period = !strcmp(c->name, "sched_rt_period_us");
	long before = period ? ST_RT_PERIOD_US : ST_RT_RUNTIME_US;
	long want_period = period && !c->ret ? c->value : ST_RT_PERIOD_US;
	long want_runtime = !period && !c->ret ? c->value : ST_RT_RUNTIME_US;
	long now;

	KUNIT_EXPECT_EQ(test, rtg_sysctl(test, c->name, c->value), c->ret);
	now = period ? (long)READ_ONCE(sysctl_sched_rt_period) :
		       READ_ONCE(sysctl_sched_rt_runtime);
	KUNIT_EXPECT_EQ(test, now, c->ret ? before : c->value);
	/* The default bandwidth follows an accepted value, in nanoseconds. */
	KUNIT_EXPECT_EQ(test, def_rt_bandwidth.rt_runtime,
			want_runtime < 0 ? RUNTIME_INF : (u64)want_runtime * RTG_US);
	KUNIT_EXPECT_EQ(test, ktime_to_ns(def_rt_bandwidth.rt_period),
			(s64)want_period * RTG_US);
}

/* Must stay last. */
static void sched_rt_group_state_restored(struct kunit *test)
{
	rtg_expect_state(test, &rtg_suite_start);
}

static struct kunit_case rtg_test_cases[] = {
	KUNIT_CASE_PARAM(sched_rt_group_runtime_vs_period, rtg_runtime_gen_params),
	KUNIT_CASE(sched_rt_group_children_sum),
	KUNIT_CASE(sched_rt_group_global_limit),
	KUNIT_CASE(sched_rt_group_bad_settings),
	KUNIT_CASE(sched_rt_group_busy),
	KUNIT_CASE(sched_rt_group_busy_unlimited),
	KUNIT_CASE(sched_rt_group_runtime_inf),
	KUNIT_CASE(sched_rt_group_global_unlimited),
	KUNIT_CASE(sched_rt_group_overflow_guards),
	KUNIT_CASE(sched_rt_group_can_attach),
	KUNIT_CASE_PARAM(sched_rt_group_sysctl, rtg_sysctl_gen_params),
	KUNIT_CASE(sched_rt_group_state_restored),
	{}
};

static struct kunit_suite rtg_test_suite = {
	.name = "sched_rt_group",
	.suite_init = rtg_suite_init,
	.suite_exit = rtg_suite_exit,
	.init = rtg_init,
	.exit = rtg_exit,
	.test_cases = rtg_test_cases,
};

kunit_test_suite(rtg_test_suite);
