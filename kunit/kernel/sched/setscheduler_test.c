// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the class-specific steps of __sched_setscheduler(), the
 * code behind sched_setattr(), sched_setscheduler() and their _nocheck()
 * variants, and for the deadline hooks core.c calls around it.
 *
 * sched_setscheduler: what the deadline and RT classes decide when a task
 * asks to join them:
 *  - -EINVAL for deadline parameters __checkparam_dl() refuses, before any
 *    permission or bandwidth check;
 *  - -EPERM, for user requests only, for an RT policy in a task group
 *    without RT runtime (CONFIG_RT_GROUP_SCHED), and for SCHED_DEADLINE
 *    with an affinity narrower than the root domain or in a root domain
 *    without deadline bandwidth (CONFIG_SMP);
 *  - -EBUSY when sched_dl_overflow() refuses the bandwidth;
 *  - 0, with the task in its new class and the bandwidth accounted;
 *  - the donor's parameters for a deadline task that leaves SCHED_DEADLINE
 *    while an rt_mutex boosts it (__setscheduler_dl_pi());
 * and dl_task_check_affinity(), cpuset_cpumask_can_shrink() and the
 * deadline and RT state a new task starts with (__sched_fork()).
 *
 * The cases run the real calls on a kthread that is created but never
 * woken, and that is off its runqueue before a case starts, so it is never
 * enqueued: its policy changes, but nothing runs under it. A task that
 * leaves SCHED_DEADLINE without ever having run keeps its share of the
 * root domain's total_bw (switched_from_dl() only drops this_bw; the total
 * goes at its 0-lag time, which a task that never ran does not reach), so
 * every case restores the deadline state saved by the sched_dl_overflow
 * suite's helpers, which this file shares
 * (CONFIG_SCHED_DL_ADMISSION_KUNIT_TEST), puts the kthread back to
 * SCHED_NORMAL in its own task group and stops it. The last case checks
 * that the deadline state is as the suite found it.
 */
#include <kunit/test.h>
#include <linux/kthread.h>

struct dls_ctx {
	struct dla_state saved;
	struct dla_state want;
	struct task_struct *p;
	struct task_struct *donor;	/* a second kthread, or NULL */
	struct task_group *tg;		/* a test task group, or NULL */
	struct task_group *home;	/* the kthread's own task group */
	int cpu;
};

/* Never called: the kthread is stopped before it is ever woken. */
static int dls_kthread_fn(void *data)
{
	return 0;
}

/*
 * A kthread that is created but never woken. kthread_create() returns
 * once the new thread has said it exists, which may be before it is off
 * its runqueue (on SMP it can still be going to sleep on another CPU):
 * wait for that, so that it is never enqueued while a case changes it.
 */
static struct task_struct *dls_kthread(const char *name)
{
	struct task_struct *p = kthread_create(dls_kthread_fn, NULL, name);

	if (!IS_ERR(p) && !wait_task_inactive(p, TASK_UNINTERRUPTIBLE)) {
		kthread_stop(p);
		return ERR_PTR(-EBUSY);
	}
	return p;
}

static int dls_init(struct kunit *test)
{
	struct dls_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	struct task_struct *p;

	if (!ctx || dla_alloc_state(test, &ctx->saved) ||
	    dla_alloc_state(test, &ctx->want))
		return -ENOMEM;
	dla_save(&ctx->saved);
	memcpy(ctx->want.cpu, ctx->saved.cpu, nr_cpu_ids * sizeof(*ctx->want.cpu));
	/* Set before anything can fail: .exit runs even when .init fails. */
	test->priv = ctx;
	p = dls_kthread("dls_test");
	if (IS_ERR(p))
		return PTR_ERR(p);
	ctx->p = p;
	ctx->cpu = task_cpu(p);
#ifdef CONFIG_CGROUP_SCHED
	ctx->home = p->sched_task_group;
#endif
	return 0;
}

/* Point the (never enqueued) kthread at task group @tg. */
static void dls_set_group(struct task_struct *p, struct task_group *tg)
{
#ifdef CONFIG_CGROUP_SCHED
	struct rq_flags rf;
	struct rq *rq = task_rq_lock(p, &rf);

	p->sched_task_group = tg;
	task_rq_unlock(rq, p, &rf);
#endif
}

static int dls_setattr(struct task_struct *p, bool user, int policy,
		       u32 prio, u64 runtime, u64 deadline, u64 period)
{
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= policy,
		.sched_priority	= prio,
		.sched_runtime	= runtime,
		.sched_deadline	= deadline,
		.sched_period	= period,
	};

	return user ? sched_setattr(p, &attr) : sched_setattr_nocheck(p, &attr);
}

static int dls_normal(struct task_struct *p)
{
	return dls_setattr(p, false, SCHED_NORMAL, 0, 0, 0, 0);
}

#ifdef CONFIG_RT_MUTEXES
/* Boost @p with @donor's priority as an rt_mutex would, or end the boost. */
static void dls_boost(struct task_struct *p, struct task_struct *donor)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	rt_mutex_setprio(p, donor);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

static void dls_set_deadline(struct task_struct *p, u64 deadline)
{
	struct rq_flags rf;
	struct rq *rq = task_rq_lock(p, &rf);

	p->dl.deadline = deadline;
	task_rq_unlock(rq, p, &rf);
}
#endif

static void dls_exit(struct kunit *test)
{
	struct dls_ctx *ctx = test->priv;

	if (!ctx || !ctx->saved.cpu)
		return;
	if (ctx->p) {
#ifdef CONFIG_RT_MUTEXES
		/* A case that stopped half-way may leave the boost on. */
		if (ctx->p->pi_top_task)
			dls_boost(ctx->p, NULL);
#endif
		KUNIT_EXPECT_EQ(test, dls_normal(ctx->p), 0);
		dls_set_group(ctx->p, ctx->home);
		hrtimer_cancel(&ctx->p->dl.inactive_timer);
		kthread_stop(ctx->p);
	}
	if (ctx->donor) {
		KUNIT_EXPECT_EQ(test, dls_normal(ctx->donor), 0);
		hrtimer_cancel(&ctx->donor->dl.inactive_timer);
		kthread_stop(ctx->donor);
	}
#ifdef CONFIG_CGROUP_SCHED
	if (ctx->tg) {
		sched_release_group(ctx->tg);
		sched_destroy_group(ctx->tg);
	}
#endif
	dla_restore(test, &ctx->saved);
}

/* A new task starts with its deadline and RT state cleared. */
static void setscheduler_fork_state(struct kunit *test)
{
	struct dls_ctx *ctx = test->priv;
	struct task_struct *p = ctx->p;

	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_NODE(&p->dl.rb_node));
	/*
	 * The timers were initialised for this task (hrtimer_init() clears
	 * their queue node), not copied from the parent's.
	 */
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_NODE(&p->dl.dl_timer.node.node));
	KUNIT_EXPECT_PTR_EQ(test, p->dl.dl_timer.function, &dl_task_timer);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_NODE(&p->dl.inactive_timer.node.node));
	KUNIT_EXPECT_PTR_EQ(test, p->dl.inactive_timer.function, &inactive_task_timer);
	KUNIT_EXPECT_EQ(test, p->dl.dl_runtime, 0ULL);
	KUNIT_EXPECT_EQ(test, p->dl.dl_deadline, 0ULL);
	KUNIT_EXPECT_EQ(test, p->dl.dl_period, 0ULL);
	KUNIT_EXPECT_EQ(test, p->dl.dl_bw, 0ULL);
	KUNIT_EXPECT_EQ(test, p->dl.flags, 0U);
	KUNIT_EXPECT_FALSE(test, p->dl.dl_throttled);
	KUNIT_EXPECT_FALSE(test, p->dl.dl_non_contending);
#ifdef CONFIG_RT_MUTEXES
	KUNIT_EXPECT_PTR_EQ(test, p->dl.pi_se, &p->dl);
#endif
	KUNIT_EXPECT_TRUE(test, list_empty(&p->rt.run_list));
	KUNIT_EXPECT_EQ(test, p->rt.timeout, 0UL);
	KUNIT_EXPECT_EQ(test, p->rt.time_slice, (unsigned int)sched_rr_timeslice);
	KUNIT_EXPECT_EQ(test, p->rt.on_rq, 0);
	KUNIT_EXPECT_EQ(test, p->rt.on_list, 0);
}

/* SCHED_DEADLINE requests that every configuration judges alike. */
struct dls_dl_case {
	const char *desc;
	bool user;		/* sched_setattr(), or sched_setattr_nocheck() */
	u64 runtime, deadline, period;
	s64 headroom;		/* limit - (total before + bw) */
	int ret;
};

static const struct dls_dl_case dls_dl_cases[] = {
	{ "user, fits with room to spare", true,
	  10 * DLA_MS, 100 * DLA_MS, 100 * DLA_MS, 1000, 0 },
	{ "user, fits exactly", true,
	  10 * DLA_MS, 100 * DLA_MS, 100 * DLA_MS, 0, 0 },
	{ "user, one unit over", true,
	  10 * DLA_MS, 100 * DLA_MS, 100 * DLA_MS, -1, -EBUSY },
	{ "kernel, fits exactly", false,
	  10 * DLA_MS, 100 * DLA_MS, 100 * DLA_MS, 0, 0 },
	{ "kernel, one unit over", false,
	  10 * DLA_MS, 100 * DLA_MS, 100 * DLA_MS, -1, -EBUSY },
	{ "user, runtime above deadline", true,
	  20 * DLA_MS, 10 * DLA_MS, 100 * DLA_MS, 1000, -EINVAL },
	{ "user, runtime above deadline, no bandwidth left", true,
	  20 * DLA_MS, 10 * DLA_MS, 100 * DLA_MS, -(s64)BW_UNIT, -EINVAL },
	{ "kernel, runtime below 1024 ns", false,
	  1023, 100 * DLA_MS, 100 * DLA_MS, 1000, -EINVAL },
	{ "kernel, deadline 0", false, 10 * DLA_MS, 0, 0, 1000, -EINVAL },
};

static void dls_dl_desc(const struct dls_dl_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dls_dl, dls_dl_cases, dls_dl_desc);

static void setscheduler_deadline(struct kunit *test)
{
	const struct dls_dl_case *c = test->param_value;
	struct dls_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);
	u64 period = c->period ?: c->deadline;
	u64 bw = period ? to_ratio(period, c->runtime) : 0;
	struct task_struct *p = ctx->p;
	int ret;

	dla_set_total(&ctx->want, ctx->cpu, d.limit - bw - c->headroom);
	ret = dls_setattr(p, c->user, SCHED_DEADLINE, 0, c->runtime,
			  c->deadline, c->period);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (!ret) {
		KUNIT_EXPECT_EQ(test, p->policy, SCHED_DEADLINE);
		KUNIT_EXPECT_TRUE(test, dl_task(p));
		KUNIT_EXPECT_EQ(test, p->dl.dl_runtime, c->runtime);
		KUNIT_EXPECT_EQ(test, p->dl.dl_bw, bw);
		dla_model_add(&ctx->want, ctx->cpu, bw, d.cpus);
		/* Not queued: switched_to_dl() accounts it in this_bw. */
		ctx->want.cpu[ctx->cpu].this_bw += bw;
	} else {
		KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	}
	dla_expect_state(test, &ctx->want, "after the call");
}

/* Make @p a SCHED_DEADLINE task that wants 10 ms every 100 ms. */
static int dls_dl_10_100(struct task_struct *p, bool user)
{
	return dls_setattr(p, user, SCHED_DEADLINE, 0, 10 * DLA_MS,
			   100 * DLA_MS, 100 * DLA_MS);
}

/* Leaving SCHED_DEADLINE before running keeps the total, drops this_bw. */
static void setscheduler_deadline_leave(struct kunit *test)
{
	struct dls_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);
	struct task_struct *p = ctx->p;

	KUNIT_ASSERT_EQ(test, dls_dl_10_100(p, true), 0);
	dla_model_add(&ctx->want, ctx->cpu, DLA_BW_10_100, d.cpus);
	KUNIT_ASSERT_EQ(test, dls_normal(p), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	KUNIT_EXPECT_FALSE(test, dl_task(p));
	dla_expect_state(test, &ctx->want, "after leaving");
}

/*
 * A SCHED_DEADLINE task boosted by a deadline donor whose deadline is
 * later than its own runs on its own parameters; if it leaves
 * SCHED_DEADLINE while still boosted, it must run on the donor's
 * (__setscheduler_dl_pi()) until the boost ends.
 */
static void setscheduler_deadline_boosted(struct kunit *test)
{
#ifdef CONFIG_RT_MUTEXES
	struct dls_ctx *ctx = test->priv;
	struct task_struct *p = ctx->p, *donor;

	donor = dls_kthread("dls_donor");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, donor);
	ctx->donor = donor;
	KUNIT_ASSERT_EQ(test, dls_dl_10_100(p, false), 0);
	KUNIT_ASSERT_EQ(test, dls_dl_10_100(donor, false), 0);
	/* Never enqueued, so no absolute deadlines yet: give the boost some. */
	dls_set_deadline(p, 1);
	dls_set_deadline(donor, 2);

	dls_boost(p, donor);
	KUNIT_EXPECT_PTR_EQ(test, p->pi_top_task, donor);
	KUNIT_EXPECT_PTR_EQ(test, p->dl.pi_se, &p->dl);

	KUNIT_EXPECT_EQ(test, dls_normal(p), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	KUNIT_EXPECT_TRUE(test, dl_prio(p->prio));
	KUNIT_EXPECT_PTR_EQ(test, p->sched_class, &dl_sched_class);
	KUNIT_EXPECT_PTR_EQ(test, p->dl.pi_se, &donor->dl);

	dls_boost(p, NULL);
	KUNIT_EXPECT_NULL(test, p->pi_top_task);
	KUNIT_EXPECT_EQ(test, p->prio, DEFAULT_PRIO);
	KUNIT_EXPECT_PTR_EQ(test, p->sched_class, &fair_sched_class);
	KUNIT_EXPECT_PTR_EQ(test, p->dl.pi_se, &p->dl);
#else
	kunit_skip(test, "needs CONFIG_RT_MUTEXES");
#endif
}

/* An RT policy into a task group without RT runtime: users only get -EPERM. */
static void setscheduler_rt_group_runtime(struct kunit *test)
{
#ifdef CONFIG_RT_GROUP_SCHED
	struct dls_ctx *ctx = test->priv;
	struct task_struct *p = ctx->p;
	struct task_group *tg;

	KUNIT_ASSERT_TRUE(test, rt_bandwidth_enabled());
	tg = sched_create_group(&root_task_group);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tg);
	sched_online_group(tg, &root_task_group);
	ctx->tg = tg;
	KUNIT_ASSERT_EQ(test, tg->rt_bandwidth.rt_runtime, 0ULL);
	dls_set_group(p, tg);

	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_FIFO, 1, 0, 0, 0), -EPERM);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_RR, 1, 0, 0, 0), -EPERM);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	/* The kernel itself may. */
	KUNIT_EXPECT_EQ(test, dls_setattr(p, false, SCHED_FIFO, 1, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_FIFO);
	KUNIT_ASSERT_EQ(test, dls_normal(p), 0);
	/* Not an RT policy: not this rule's business. */
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_BATCH, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_BATCH);
	KUNIT_ASSERT_EQ(test, dls_normal(p), 0);

	/* With runtime, users may too. */
	KUNIT_ASSERT_EQ(test, sched_group_set_rt_runtime(tg, 1000), 0);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_FIFO, 1, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_FIFO);
	KUNIT_EXPECT_EQ(test, p->rt_priority, 1U);
	KUNIT_ASSERT_EQ(test, dls_normal(p), 0);
	/* Back to 0 while the group has no task in an RT policy. */
	dls_set_group(p, ctx->home);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_FIFO, 1, 0, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, dls_normal(p), 0);
#else
	kunit_skip(test, "needs CONFIG_RT_GROUP_SCHED");
#endif
}

/*
 * SCHED_DEADLINE admission works per root domain: users may not make a
 * task whose affinity leaves out part of it a deadline task, nor admit
 * one where the domain has no deadline bandwidth at all.
 */
static void setscheduler_deadline_root_domain(struct kunit *test)
{
#ifdef CONFIG_SMP
	struct dls_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);
	struct task_struct *p = ctx->p;
	int cpu = ctx->cpu;

	if (d.cpus < 2)
		kunit_skip(test, "needs a root domain of 2 CPUs or more (has %d)", d.cpus);

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(p, cpumask_of(cpu)), 0);
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, true), -EPERM);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	dla_expect_state(test, &ctx->want, "after the refusal");
	/* Affinity is checked before bandwidth. */
	dla_set_total(&ctx->want, cpu, d.limit);
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, true), -EPERM);
	dla_set_total(&ctx->want, cpu, ctx->saved.cpu[cpu].total_bw);
	/* The kernel itself may. */
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, false), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_DEADLINE);
	dla_model_add(&ctx->want, cpu, DLA_BW_10_100, d.cpus);
	KUNIT_ASSERT_EQ(test, dls_normal(p), 0);
	dla_expect_state(test, &ctx->want, "after the kernel's request");

	/* No deadline bandwidth in the domain: -EPERM, or -EBUSY for the kernel. */
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(p, cpu_possible_mask), 0);
	dla_set_bw(&ctx->want, cpu, 0);
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, true), -EPERM);
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, false), -EBUSY);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	dla_set_bw(&ctx->want, cpu, ctx->saved.cpu[cpu].bw);
	/* Whole domain, bandwidth back: users may. */
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, true), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_DEADLINE);
#else
	kunit_skip(test, "UP: no root domain");
#endif
}

/* Affinity changes of a deadline task must keep its root domain. */
static void setscheduler_deadline_affinity(struct kunit *test)
{
#ifdef CONFIG_SMP
	struct dls_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);
	struct task_struct *p = ctx->p;
	int cpu = ctx->cpu;

	if (d.cpus < 2)
		kunit_skip(test, "needs a root domain of 2 CPUs or more (has %d)", d.cpus);

	/* Not a deadline task: any mask. */
	KUNIT_EXPECT_EQ(test, dl_task_check_affinity(p, cpumask_of(cpu)), 0);
	KUNIT_ASSERT_EQ(test, dls_dl_10_100(p, true), 0);
	KUNIT_EXPECT_EQ(test, dl_task_check_affinity(p, cpumask_of(cpu)), -EBUSY);
	KUNIT_EXPECT_EQ(test, dl_task_check_affinity(p, cpu_active_mask), 0);
	KUNIT_EXPECT_EQ(test, dl_task_check_affinity(p, cpu_possible_mask), 0);
	/* The domain's span, not the CPUs that happen to be active. */
	KUNIT_EXPECT_EQ(test, dl_task_check_affinity(p, task_rq(p)->rd->span), 0);
#else
	kunit_skip(test, "UP: dl_task_check_affinity() is a stub that allows all");
#endif
}

/* May a cpuset go from @cur to @trial CPUs, given the bandwidth admitted? */
static void setscheduler_cpuset_can_shrink(struct kunit *test)
{
#ifdef CONFIG_SMP
	struct dls_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);
	struct cpumask *one = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	struct cpumask *none = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	const struct cpumask *span = cpu_rq(ctx->cpu)->rd->span;

	KUNIT_ASSERT_NOT_NULL(test, one);
	KUNIT_ASSERT_NOT_NULL(test, none);
	if (d.cpus < 2)
		kunit_skip(test, "needs a root domain of 2 CPUs or more (has %d)", d.cpus);
	cpumask_set_cpu(cpumask_first(span), one);

	/* More than one CPU's worth admitted: it may not shrink to one CPU... */
	dla_set_total(&ctx->want, ctx->cpu, DLA_DEFAULT_BW + 1);
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(span, one), 0);
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(span, none), 0);
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(span, span), 1);
	/* ...but an empty cpuset has nothing to keep. */
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(none, one), 1);
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(none, none), 1);
	/* Exactly one CPU's worth. */
	dla_set_total(&ctx->want, ctx->cpu, DLA_DEFAULT_BW);
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(span, one), 1);
#else
	kunit_skip(test, "UP: no cpusets");
#endif
}

/* Must stay last. */
static void setscheduler_state_restored(struct kunit *test)
{
	dla_state_restored(test);
}

static struct kunit_case dls_test_cases[] = {
	KUNIT_CASE(setscheduler_fork_state),
	KUNIT_CASE_PARAM(setscheduler_deadline, dls_dl_gen_params),
	KUNIT_CASE(setscheduler_deadline_leave),
	KUNIT_CASE(setscheduler_deadline_boosted),
	KUNIT_CASE(setscheduler_rt_group_runtime),
	KUNIT_CASE(setscheduler_deadline_root_domain),
	KUNIT_CASE(setscheduler_deadline_affinity),
	KUNIT_CASE(setscheduler_cpuset_can_shrink),
	KUNIT_CASE(setscheduler_state_restored),
	{}
};

static struct kunit_suite dls_test_suite = {
	.name = "sched_setscheduler",
	/* The start state of the suite, as the sched_dl_overflow suites keep it. */
	.suite_init = dla_suite_init,
	.suite_exit = dla_suite_exit,
	.init = dls_init,
	.exit = dls_exit,
	.test_cases = dls_test_cases,
};

kunit_test_suite(dls_test_suite);
