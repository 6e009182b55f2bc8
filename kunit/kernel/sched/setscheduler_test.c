// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the class-specific steps of __sched_setscheduler(), the
 * code behind sched_setattr(), sched_setscheduler() and their _nocheck()
 * variants, and for the deadline hooks core.c calls around it.
 *
 * sched_setscheduler: what the deadline and RT classes decide when a task
 * asks to join them or to change:
 *  - -EINVAL for deadline parameters __checkparam_dl() refuses, before any
 *    permission or bandwidth check, and for a user request that claims
 *    SCHED_FLAG_SUGOV;
 *  - -EPERM, for user requests only, for an RT policy in a task group
 *    without RT runtime (CONFIG_RT_GROUP_SCHED), and for SCHED_DEADLINE
 *    with an affinity narrower than the root domain or in a root domain
 *    without deadline bandwidth (CONFIG_SMP); neither rule applies when
 *    sched_rt_runtime_us is -1;
 *  - -EBUSY when sched_dl_overflow() refuses the bandwidth, including for
 *    a task boosted by a deadline donor that asks for another policy;
 *  - 0, with the task in its new class and the bandwidth accounted, or
 *    with nothing to do when the parameters do not change;
 *  - the donor's parameters for a deadline task that leaves SCHED_DEADLINE
 *    while an rt_mutex boosts it (__setscheduler_dl_pi());
 * and dl_task_check_affinity(), cpuset_cpumask_can_shrink() and the
 * deadline and RT state a new task starts with (__sched_fork()).
 *
 * The cases run the real calls on a kthread that is created but not woken
 * (sched_test_util.h): its policy changes, but it is never enqueued until
 * the exit stops it. A deadline task gives its bandwidth back as it dies;
 * what no task gives back is the case's, given back with __dl_sub().
 */
#include "sched_test_util.h"

struct dls_ctx {
	struct sched_test_dl_ctx dl;
	struct task_group *tg;		/* a test task group, or NULL */
	struct task_group *home;	/* the kthread's own task group */
};

static int dls_init(struct kunit *test)
{
	struct dls_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	int ret;

	if (!ctx)
		return -ENOMEM;
	/* Set before anything can fail: .exit runs even when .init fails. */
	test->priv = ctx;
	ret = sched_test_dl_ctx_init(test, &ctx->dl, "dls_test");
#ifdef CONFIG_CGROUP_SCHED
	if (!ret)
		ctx->home = ctx->dl.p->sched_task_group;
#endif
	return ret;
}

#ifdef CONFIG_CGROUP_SCHED
/*
 * Move the kthread to task group @tg. The test groups have no cgroup, so
 * sched_move_task() cannot find them: this is sched_change_group() with
 * @tg given, under the same lock. sched_move_task() would also dequeue
 * and enqueue a queued or running task: the kthread is neither.
 */
static void dls_set_group(struct task_struct *p, struct task_group *tg)
{
	struct rq_flags rf;
	struct rq *rq = task_rq_lock(p, &rf);

	WARN_ON_ONCE(task_on_rq_queued(p) || task_current(rq, p));
	update_rq_clock(rq);
	p->sched_task_group = tg;
#ifdef CONFIG_FAIR_GROUP_SCHED
	if (p->sched_class->task_change_group)
		p->sched_class->task_change_group(p);
	else
#endif
		set_task_rq(p, task_cpu(p));
	task_rq_unlock(rq, p, &rf);
}
#endif

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

/* Make @p a SCHED_DEADLINE task that wants 10 ms every 100 ms. */
static int dls_dl_10_100(struct task_struct *p, bool user)
{
	return dls_setattr(p, user, SCHED_DEADLINE, 0, 10 * ST_MS,
			   100 * ST_MS, 100 * ST_MS);
}

#ifdef CONFIG_RT_MUTEXES
/*
 * Boost @p with @donor's priority, or end the boost (@donor NULL). An
 * rt_mutex does this from rt_mutex_adjust_prio(), under @p's pi_lock, with
 * the top waiter of the locks @p holds: the donor is that waiter. The
 * kthread cannot take a lock without running, so the case calls the same
 * function with the donor it would have found.
 */
static void dls_boost(struct task_struct *p, struct task_struct *donor)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	rt_mutex_setprio(p, donor);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

/* A never-queued deadline task has no absolute deadline yet: set one. */
static void dls_set_deadline(struct task_struct *p, u64 deadline)
{
	struct rq_flags rf;
	struct rq *rq = task_rq_lock(p, &rf);

	p->dl.deadline = deadline;
	task_rq_unlock(rq, p, &rf);
}

/*
 * The test kthread and a donor kthread, both SCHED_DEADLINE 10 ms / 100
 * ms (in the model too), with absolute deadlines @p_deadline and
 * @donor_deadline. Returns the donor.
 */
static struct task_struct *dls_two_deadline_tasks(struct kunit *test, u64 p_deadline,
						  u64 donor_deadline)
{
	struct sched_test_dl_ctx *dl = &((struct dls_ctx *)test->priv)->dl;
	struct task_struct *donor = sched_test_kthread("dls_donor");

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, donor);
	dl->donor = donor;
	KUNIT_ASSERT_EQ(test, dls_dl_10_100(dl->p, false), 0);
	sched_test_dl_model_task(dl, dl->p, &dl->p_bw, ST_BW_10_100);
	KUNIT_ASSERT_EQ(test, dls_dl_10_100(donor, false), 0);
	sched_test_dl_model_task(dl, dl->donor, &dl->donor_bw, ST_BW_10_100);
	dls_set_deadline(dl->p, p_deadline);
	dls_set_deadline(donor, donor_deadline);
	return donor;
}
#endif

static void dls_cleanup(struct kunit *test)
{
	struct dls_ctx *ctx = test->priv;
	struct task_struct *p;

	if (!ctx)
		return;
	p = ctx->dl.p;
#ifdef CONFIG_RT_MUTEXES
	/* A case that stopped half-way may leave the boost on. */
	if (p && p->pi_top_task)
		dls_boost(p, NULL);
#endif
#ifdef CONFIG_CGROUP_SCHED
	if (p && ctx->home && p->sched_task_group != ctx->home) {
		/* Not in an RT policy, or it may not leave a group with runtime. */
		if (rt_policy(p->policy))
			KUNIT_EXPECT_EQ(test, dls_normal(p), 0);
		dls_set_group(p, ctx->home);
	}
#endif
	sched_test_dl_ctx_exit(test, &ctx->dl);
#ifdef CONFIG_CGROUP_SCHED
	if (ctx->tg) {
		sched_release_group(ctx->tg);
		sched_destroy_group(ctx->tg);
	}
#endif
}

static void dls_exit(struct kunit *test)
{
	dls_cleanup(test);
	sched_test_global_kept(test);
}

/*
 * A new task's deadline and RT entities are its own: the pointers that
 * point into the entity itself (an empty rb node or list points to
 * itself, pi_se to its own entity) would point into the parent's if they
 * had been copied. (Zeros prove nothing here: the parent, kthreadd, has
 * them too.)
 */
static void sched_setscheduler_fork_state(struct kunit *test)
{
	struct dls_ctx *ctx = test->priv;
	struct task_struct *p = ctx->dl.p;

	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	KUNIT_EXPECT_EQ(test, p->dl.rb_node.__rb_parent_color,
			(unsigned long)&p->dl.rb_node);
	KUNIT_EXPECT_EQ(test, p->dl.dl_timer.node.node.__rb_parent_color,
			(unsigned long)&p->dl.dl_timer.node.node);
	KUNIT_EXPECT_EQ(test, p->dl.inactive_timer.node.node.__rb_parent_color,
			(unsigned long)&p->dl.inactive_timer.node.node);
#ifdef CONFIG_RT_MUTEXES
	KUNIT_EXPECT_PTR_EQ(test, p->dl.pi_se, &p->dl);
#endif
	KUNIT_EXPECT_PTR_EQ(test, p->rt.run_list.next, &p->rt.run_list);
	KUNIT_EXPECT_PTR_EQ(test, p->rt.run_list.prev, &p->rt.run_list);
}

/* SCHED_DEADLINE requests that every configuration judges alike. */
struct dls_dl_case {
	const char *desc;
	bool user;		/* sched_setattr(), or sched_setattr_nocheck() */
	u64 runtime, deadline, period;
	u64 bw;			/* worked out by hand */
	s64 headroom;		/* limit - (total before + bw) */
	int ret;
};

static const struct dls_dl_case dls_dl_cases[] = {
	{ "user, fits with room to spare", true,
	  10 * ST_MS, 100 * ST_MS, 100 * ST_MS, ST_BW_10_100, 1000, 0 },
	{ "user, fits exactly", true,
	  10 * ST_MS, 100 * ST_MS, 100 * ST_MS, ST_BW_10_100, 0, 0 },
	{ "user, one unit over", true,
	  10 * ST_MS, 100 * ST_MS, 100 * ST_MS, ST_BW_10_100, -1, -EBUSY },
	{ "kernel, fits exactly", false,
	  10 * ST_MS, 100 * ST_MS, 100 * ST_MS, ST_BW_10_100, 0, 0 },
	{ "kernel, one unit over", false,
	  10 * ST_MS, 100 * ST_MS, 100 * ST_MS, ST_BW_10_100, -1, -EBUSY },
	{ "user, period 0 uses the deadline, fits exactly", true,
	  10 * ST_MS, 50 * ST_MS, 0, ST_BW_10_50, 0, 0 },
	{ "user, runtime above deadline", true,
	  20 * ST_MS, 10 * ST_MS, 100 * ST_MS, 0, 1000, -EINVAL },
	{ "user, runtime above deadline, no bandwidth left", true,
	  20 * ST_MS, 10 * ST_MS, 100 * ST_MS, 0, -(s64)ST_BW_UNIT, -EINVAL },
	{ "kernel, runtime below 1024 ns", false,
	  1023, 100 * ST_MS, 100 * ST_MS, 0, 1000, -EINVAL },
	{ "kernel, deadline 0", false, 10 * ST_MS, 0, 0, 0, 1000, -EINVAL },
};

SCHED_TEST_PARAMS(dls_dl, dls_dl_cases, dls_dl_case);

static void sched_setscheduler_deadline(struct kunit *test)
{
	const struct dls_dl_case *c = test->param_value;
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct task_struct *p = dl->p;
	int ret;

	sched_test_dl_preset_total(test, dl, dl->d.limit - c->bw - c->headroom);
	ret = dls_setattr(p, c->user, SCHED_DEADLINE, 0, c->runtime,
			  c->deadline, c->period);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (!ret) {
		KUNIT_EXPECT_EQ(test, p->policy, SCHED_DEADLINE);
		KUNIT_EXPECT_TRUE(test, dl_task(p));
		KUNIT_EXPECT_EQ(test, p->dl.dl_runtime, c->runtime);
		KUNIT_EXPECT_EQ(test, p->dl.dl_bw, c->bw);
		sched_test_dl_model_task(dl, dl->p, &dl->p_bw, c->bw);
	} else {
		KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	}
	sched_test_dl_expect(test, &dl->want, "after the call");
}

/* A user request may not claim to be schedutil's kthread. */
static void sched_setscheduler_sugov_user(struct kunit *test)
{
	struct dls_ctx *ctx = test->priv;
	struct task_struct *p = ctx->dl.p;
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_DEADLINE,
		.sched_flags	= SCHED_FLAG_SUGOV,
		.sched_runtime	= 10 * ST_MS,
		.sched_deadline	= 100 * ST_MS,
		.sched_period	= 100 * ST_MS,
	};

	KUNIT_EXPECT_EQ(test, sched_setattr(p, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	sched_test_dl_expect(test, &ctx->dl.want, "after the refusal");
}

/*
 * Known 6.1 behaviour, kept by the series: a deadline task that leaves
 * SCHED_DEADLINE while not queued and without an armed inactive timer
 * (it never ran, as here, or it slept past its 0-lag time) keeps its
 * share of the domain's total_bw for good. switched_from_dl() drops
 * this_bw; the total is meant to go at the 0-lag time, but only
 * task_non_contending() arms that timer, when a running task sleeps.
 */
static void sched_setscheduler_deadline_leave(struct kunit *test)
{
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct task_struct *p = dl->p;

	KUNIT_ASSERT_EQ(test, dls_dl_10_100(p, true), 0);
	sched_test_dl_model_task(dl, dl->p, &dl->p_bw, ST_BW_10_100);
	KUNIT_ASSERT_EQ(test, dls_normal(p), 0);
	/* No task gives the total back: the case does. */
	dl->want.cpu[dl->cpu].this_bw -= ST_BW_10_100;
	dl->p_bw = 0;
	sched_test_dl_hold(test, dl, ST_BW_10_100);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	KUNIT_EXPECT_FALSE(test, dl_task(p));
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&p->dl.inactive_timer));
	sched_test_dl_expect(test, &dl->want, "after leaving");
}

/* A deadline task changing its parameters: the new bandwidth is admitted. */
static void sched_setscheduler_deadline_change(struct kunit *test)
{
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct task_struct *p = dl->p;

	KUNIT_ASSERT_EQ(test, dls_dl_10_100(p, true), 0);
	sched_test_dl_model_task(dl, dl->p, &dl->p_bw, ST_BW_10_100);

	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_DEADLINE, 0, 20 * ST_MS,
					  100 * ST_MS, 100 * ST_MS), 0);
	KUNIT_EXPECT_EQ(test, p->dl.dl_runtime, 20 * ST_MS);
	sched_test_dl_model_change(dl, ST_BW_20_100);
	sched_test_dl_expect(test, &dl->want, "after growing");
}

/* ... or refused when it does not fit, and the old parameters stay. */
static void sched_setscheduler_deadline_change_refused(struct kunit *test)
{
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct task_struct *p = dl->p;

	KUNIT_ASSERT_EQ(test, dls_dl_10_100(p, true), 0);
	sched_test_dl_model_task(dl, dl->p, &dl->p_bw, ST_BW_10_100);
	/* Growing by 10 ms / 100 ms would end one unit past the limit. */
	sched_test_dl_preset_total(test, dl, dl->d.limit - ST_BW_20_100 + ST_BW_10_100 + 1);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_DEADLINE, 0, 20 * ST_MS,
					  100 * ST_MS, 100 * ST_MS), -EBUSY);
	KUNIT_EXPECT_EQ(test, p->dl.dl_runtime, 10 * ST_MS);
	sched_test_dl_expect(test, &dl->want, "after the refusal");
}

/*
 * Unchanged parameters (dl_param_changed()), or a change that keeps the
 * bandwidth (sched_dl_overflow()'s shortcut), are not checked at all,
 * even in a domain over capacity.
 */
static void sched_setscheduler_deadline_change_same_bw(struct kunit *test)
{
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct task_struct *p = dl->p;

	KUNIT_ASSERT_EQ(test, dls_dl_10_100(p, true), 0);
	sched_test_dl_model_task(dl, dl->p, &dl->p_bw, ST_BW_10_100);
	sched_test_dl_preset_total(test, dl, dl->d.limit + 1);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_DEADLINE, 0, 10 * ST_MS,
					  100 * ST_MS, 100 * ST_MS), 0);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_DEADLINE, 0, 10 * ST_MS,
					  50 * ST_MS, 100 * ST_MS), 0);
	KUNIT_EXPECT_EQ(test, p->dl.dl_deadline, 50 * ST_MS);
	sched_test_dl_expect(test, &dl->want, "after the unchecked changes");
}

/*
 * A user's change of a deadline task is checked against the root domain
 * again: the kernel may have narrowed the task's affinity since.
 */
static void sched_setscheduler_deadline_change_affinity(struct kunit *test)
{
#ifdef CONFIG_SMP
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct task_struct *p = dl->p;

	if (dl->d.cpus < 2)
		kunit_skip(test, "needs a root domain of 2 CPUs or more (has %d)",
			   dl->d.cpus);
	KUNIT_ASSERT_EQ(test, dls_dl_10_100(p, true), 0);
	sched_test_dl_model_task(dl, dl->p, &dl->p_bw, ST_BW_10_100);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(p, cpumask_of(dl->cpu)), 0);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_DEADLINE, 0, 20 * ST_MS,
					  100 * ST_MS, 100 * ST_MS), -EPERM);
	KUNIT_EXPECT_EQ(test, p->dl.dl_runtime, 10 * ST_MS);
	sched_test_dl_expect(test, &dl->want, "after the refused change");
	/* The kernel itself may. */
	KUNIT_EXPECT_EQ(test, dls_setattr(p, false, SCHED_DEADLINE, 0, 20 * ST_MS,
					  100 * ST_MS, 100 * ST_MS), 0);
	sched_test_dl_model_change(dl, ST_BW_20_100);
	KUNIT_EXPECT_EQ(test, set_cpus_allowed_ptr(p, cpu_possible_mask), 0);
#else
	kunit_skip(test, "UP: no root domain");
#endif
}

/*
 * A SCHED_DEADLINE task boosted by a deadline donor whose deadline is
 * later than its own runs on its own parameters; if it leaves
 * SCHED_DEADLINE while still boosted, it must run on the donor's
 * (__setscheduler_dl_pi()) until the boost ends.
 */
static void sched_setscheduler_deadline_boosted(struct kunit *test)
{
#ifdef CONFIG_RT_MUTEXES
	struct sched_test_dl_ctx *dl = &((struct dls_ctx *)test->priv)->dl;
	struct task_struct *p = dl->p, *donor = dls_two_deadline_tasks(test, 1, 2);

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
	/* Left without having run: the known 6.1 leak (deadline_leave). */
	dl->want.cpu[dl->cpu].this_bw -= ST_BW_10_100;
	dl->p_bw = 0;
	sched_test_dl_hold(test, dl, ST_BW_10_100);
#else
	kunit_skip(test, "needs CONFIG_RT_MUTEXES");
#endif
}

/*
 * A SCHED_DEADLINE task boosted by a deadline donor whose deadline is
 * earlier than its own runs on the donor's parameters until the boost
 * ends (rt_mutex_setprio()).
 */
static void sched_setscheduler_deadline_boosted_earlier(struct kunit *test)
{
#ifdef CONFIG_RT_MUTEXES
	struct sched_test_dl_ctx *dl = &((struct dls_ctx *)test->priv)->dl;
	struct task_struct *p = dl->p, *donor = dls_two_deadline_tasks(test, 2, 1);

	dls_boost(p, donor);
	KUNIT_EXPECT_PTR_EQ(test, p->pi_top_task, donor);
	KUNIT_EXPECT_PTR_EQ(test, p->dl.pi_se, &donor->dl);
	dls_boost(p, NULL);
	KUNIT_EXPECT_NULL(test, p->pi_top_task);
	KUNIT_EXPECT_PTR_EQ(test, p->sched_class, &dl_sched_class);
	KUNIT_EXPECT_PTR_EQ(test, p->dl.pi_se, &p->dl);
	sched_test_dl_expect(test, &dl->want, "after the boost");
#else
	kunit_skip(test, "needs CONFIG_RT_MUTEXES");
#endif
}

/*
 * Known 6.1 behaviour, kept by the series: a task that is not a deadline
 * task but runs boosted by a deadline donor is a deadline task to
 * __sched_setscheduler() (dl_task()); asking for another policy that is
 * not SCHED_DEADLINE matches no branch of sched_dl_overflow() and is
 * refused with -EBUSY until the boost ends, although it has no deadline
 * bandwidth to account.
 */
static void sched_setscheduler_boosted_by_deadline(struct kunit *test)
{
#ifdef CONFIG_RT_MUTEXES
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct task_struct *p = dl->p, *donor;

	donor = sched_test_kthread("dls_donor");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, donor);
	dl->donor = donor;
	KUNIT_ASSERT_EQ(test, dls_dl_10_100(donor, false), 0);
	sched_test_dl_model_task(dl, dl->donor, &dl->donor_bw, ST_BW_10_100);

	dls_boost(p, donor);
	KUNIT_EXPECT_TRUE(test, dl_task(p));
	/* It runs on the donor's parameters (rt_mutex_setprio()). */
	KUNIT_EXPECT_PTR_EQ(test, p->dl.pi_se, &donor->dl);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, false, SCHED_FIFO, 1, 0, 0, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, false, SCHED_BATCH, 0, 0, 0, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	dls_boost(p, NULL);
	KUNIT_EXPECT_PTR_EQ(test, p->dl.pi_se, &p->dl);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, false, SCHED_BATCH, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_BATCH);
	sched_test_dl_expect(test, &dl->want, "after the boost");
#else
	kunit_skip(test, "needs CONFIG_RT_MUTEXES");
#endif
}

#ifdef CONFIG_RT_GROUP_SCHED
/* A test task group, without RT runtime, holding the kthread. */
static struct task_group *dls_rt_group(struct kunit *test, struct dls_ctx *ctx)
{
	struct task_group *tg = sched_create_group(&root_task_group);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tg);
	sched_online_group(tg, &root_task_group);
	ctx->tg = tg;
	KUNIT_ASSERT_EQ(test, tg->rt_bandwidth.rt_runtime, 0ULL);
	dls_set_group(ctx->dl.p, tg);
	return tg;
}
#endif

/* An RT policy into a task group without RT runtime: users get -EPERM. */
static void sched_setscheduler_rt_group_user_refused(struct kunit *test)
{
#ifdef CONFIG_RT_GROUP_SCHED
	struct dls_ctx *ctx = test->priv;
	struct task_struct *p = ctx->dl.p;

	dls_rt_group(test, ctx);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_FIFO, 1, 0, 0, 0), -EPERM);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_RR, 1, 0, 0, 0), -EPERM);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	/* Not an RT policy: not this rule's business. */
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_BATCH, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_BATCH);
	KUNIT_EXPECT_EQ(test, dls_normal(p), 0);
#else
	kunit_skip(test, "needs CONFIG_RT_GROUP_SCHED");
#endif
}

/* The same request from the kernel itself is not refused. */
static void sched_setscheduler_rt_group_kernel_allowed(struct kunit *test)
{
#ifdef CONFIG_RT_GROUP_SCHED
	struct dls_ctx *ctx = test->priv;
	struct task_struct *p = ctx->dl.p;

	dls_rt_group(test, ctx);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, false, SCHED_FIFO, 1, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_FIFO);
	KUNIT_EXPECT_EQ(test, dls_normal(p), 0);
#else
	kunit_skip(test, "needs CONFIG_RT_GROUP_SCHED");
#endif
}

/* A group with RT runtime takes a user's RT task. */
static void sched_setscheduler_rt_group_with_runtime(struct kunit *test)
{
#ifdef CONFIG_RT_GROUP_SCHED
	struct dls_ctx *ctx = test->priv;
	struct task_struct *p = ctx->dl.p;
	struct task_group *tg = dls_rt_group(test, ctx);

	KUNIT_ASSERT_EQ(test, sched_group_set_rt_runtime(tg, 1000), 0);
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_FIFO, 1, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_FIFO);
	KUNIT_EXPECT_EQ(test, p->rt_priority, 1U);
	KUNIT_EXPECT_EQ(test, dls_normal(p), 0);
#else
	kunit_skip(test, "needs CONFIG_RT_GROUP_SCHED");
#endif
}

/*
 * sched_rt_runtime_us = -1 turns the deadline rules off: a user may make
 * a task with a narrow affinity a deadline task, admitted whatever the
 * domain holds, and may then narrow it further.
 */
static void sched_setscheduler_admission_off_deadline(struct kunit *test)
{
#ifdef CONFIG_SMP
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct task_struct *p = dl->p;

	if (dl->d.cpus < 2)
		kunit_skip(test, "needs a root domain of 2 CPUs or more (has %d)",
			   dl->d.cpus);
	KUNIT_ASSERT_EQ(test, sched_test_dl_rt_runtime(test, dl, -1, (u64)-1), 0);
	sched_test_dl_preset_total(test, dl, dl->d.limit + 1);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(p, cpumask_of(dl->cpu)), 0);
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, true), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_DEADLINE);
	if (p->policy == SCHED_DEADLINE)
		sched_test_dl_model_task(dl, dl->p, &dl->p_bw, ST_BW_10_100);
	KUNIT_EXPECT_EQ(test, dl_task_check_affinity(p, cpumask_of(dl->cpu)), 0);
	sched_test_dl_expect(test, &dl->want, "after the admission");
	KUNIT_EXPECT_EQ(test, set_cpus_allowed_ptr(p, cpu_possible_mask), 0);
#else
	kunit_skip(test, "UP: no root domain");
#endif
}

/* sched_rt_runtime_us = -1: RT tasks into a group without RT runtime. */
static void sched_setscheduler_admission_off_rt_group(struct kunit *test)
{
#ifdef CONFIG_RT_GROUP_SCHED
	struct dls_ctx *ctx = test->priv;
	struct task_struct *p = ctx->dl.p;

	dls_rt_group(test, ctx);
	KUNIT_ASSERT_EQ(test, sched_test_dl_rt_runtime(test, &ctx->dl, -1, (u64)-1), 0);
	KUNIT_EXPECT_FALSE(test, rt_bandwidth_enabled());
	KUNIT_EXPECT_EQ(test, dls_setattr(p, true, SCHED_FIFO, 1, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_FIFO);
	KUNIT_EXPECT_EQ(test, dls_normal(p), 0);
#else
	kunit_skip(test, "needs CONFIG_RT_GROUP_SCHED");
#endif
}

/*
 * SCHED_DEADLINE admission works per root domain: users may not make a
 * task whose affinity leaves out part of it a deadline task, nor admit
 * one where the domain has no deadline bandwidth at all.
 */
static void sched_setscheduler_deadline_root_domain(struct kunit *test)
{
#ifdef CONFIG_SMP
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct task_struct *p = dl->p;

	if (dl->d.cpus < 2)
		kunit_skip(test, "needs a root domain of 2 CPUs or more (has %d)",
			   dl->d.cpus);

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(p, cpumask_of(dl->cpu)), 0);
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, true), -EPERM);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	/* Affinity is checked before bandwidth. */
	sched_test_dl_preset_total(test, dl, dl->d.limit);
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, true), -EPERM);
	sched_test_dl_preset_total(test, dl, 0);
	sched_test_dl_expect(test, &dl->want, "after the refusals");
	/* The kernel itself may. */
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, false), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_DEADLINE);
	if (p->policy == SCHED_DEADLINE)
		sched_test_dl_model_task(dl, dl->p, &dl->p_bw, ST_BW_10_100);
	sched_test_dl_expect(test, &dl->want, "after the kernel's request");
	KUNIT_EXPECT_EQ(test, set_cpus_allowed_ptr(p, cpu_possible_mask), 0);
#else
	kunit_skip(test, "UP: no root domain");
#endif
}

/*
 * A root domain without deadline bandwidth (sched_rt_runtime_us = 0):
 * users get -EPERM, the kernel -EBUSY. With CONFIG_RT_GROUP_SCHED the
 * root task group's RT bandwidth must first go below the new limit: 1 us
 * every 2 s is 0 in BW_SHIFT fixed point. Meanwhile an RT task in the
 * root group would be throttled after 1 us: the cells run none (the
 * stopper threads are in the stop class), and the window is a few calls.
 * On 6.12 the fair servers' bandwidth must go first too, as an admin
 * would turn them off (their runtime 0), and come back last.
 */
static void sched_setscheduler_deadline_no_bandwidth(struct kunit *test)
{
#ifdef CONFIG_SMP
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct task_struct *p = dl->p;

#ifdef CONFIG_RT_GROUP_SCHED
	dl->root_rt = true;
	KUNIT_ASSERT_EQ(test, tg_set_rt_bandwidth(&root_task_group,
						  2ULL * ST_RT_PERIOD_US * ST_US, ST_US), 0);
#endif
#ifdef ST_FAIR_SERVER
	dl->servers_off = true;
	KUNIT_ASSERT_EQ(test, sched_test_dl_servers_set(dl, 0, 0), 0);
#endif
	KUNIT_EXPECT_EQ(test, sched_test_dl_rt_runtime(test, dl, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, true), -EPERM);
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, false), -EBUSY);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	sched_test_dl_expect(test, &dl->want, "after the refusals");
	KUNIT_EXPECT_EQ(test, sched_test_dl_rt_runtime(test, dl, ST_RT_RUNTIME_US,
						       ST_BW_DEFAULT), 0);
#ifdef ST_FAIR_SERVER
	KUNIT_EXPECT_EQ(test, sched_test_dl_servers_set(dl, ST_SERVER_RUNTIME, ST_BW_SERVER), 0);
	dl->servers_off = false;
#endif
#ifdef CONFIG_RT_GROUP_SCHED
	KUNIT_EXPECT_EQ(test, tg_set_rt_bandwidth(&root_task_group,
						  (u64)ST_RT_PERIOD_US * ST_US,
						  (u64)ST_RT_RUNTIME_US * ST_US), 0);
#endif
	/* Bandwidth back: users may. */
	KUNIT_EXPECT_EQ(test, dls_dl_10_100(p, true), 0);
	if (p->policy == SCHED_DEADLINE)
		sched_test_dl_model_task(dl, dl->p, &dl->p_bw, ST_BW_10_100);
#else
	kunit_skip(test, "UP: no root domain");
#endif
}

/* Affinity changes of a deadline task must keep its root domain. */
static void sched_setscheduler_deadline_affinity(struct kunit *test)
{
#ifdef CONFIG_SMP
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct task_struct *p = dl->p;
	struct cpumask *span = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, span);
	if (dl->d.cpus < 2)
		kunit_skip(test, "needs a root domain of 2 CPUs or more (has %d)",
			   dl->d.cpus);
	rcu_read_lock_sched();
	cpumask_copy(span, task_rq(p)->rd->span);
	rcu_read_unlock_sched();

	/* Not a deadline task: any mask. */
	KUNIT_EXPECT_EQ(test, dl_task_check_affinity(p, cpumask_of(dl->cpu)), 0);
	KUNIT_ASSERT_EQ(test, dls_dl_10_100(p, true), 0);
	sched_test_dl_model_task(dl, dl->p, &dl->p_bw, ST_BW_10_100);
	KUNIT_EXPECT_EQ(test, dl_task_check_affinity(p, cpumask_of(dl->cpu)), -EBUSY);
	KUNIT_EXPECT_EQ(test, dl_task_check_affinity(p, cpu_active_mask), 0);
	KUNIT_EXPECT_EQ(test, dl_task_check_affinity(p, cpu_possible_mask), 0);
	/* The domain's span, not the CPUs that happen to be active. */
	KUNIT_EXPECT_EQ(test, dl_task_check_affinity(p, span), 0);
#else
	kunit_skip(test, "UP: dl_task_check_affinity() is a stub that allows all");
#endif
}

/* May a cpuset go from @cur to @trial CPUs, given the bandwidth admitted? */
static void sched_setscheduler_cpuset_can_shrink(struct kunit *test)
{
#ifdef CONFIG_SMP
	struct dls_ctx *ctx = test->priv;
	struct sched_test_dl_ctx *dl = &ctx->dl;
	struct cpumask *one = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	struct cpumask *none = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	struct cpumask *span = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, one);
	KUNIT_ASSERT_NOT_NULL(test, none);
	KUNIT_ASSERT_NOT_NULL(test, span);
	if (dl->d.cpus < 2)
		kunit_skip(test, "needs a root domain of 2 CPUs or more (has %d)",
			   dl->d.cpus);
	rcu_read_lock_sched();
	cpumask_copy(span, cpu_rq(dl->cpu)->rd->span);
	rcu_read_unlock_sched();
	cpumask_set_cpu(cpumask_first(span), one);

	/* More than one CPU's worth admitted: it may not shrink to one CPU... */
	sched_test_dl_preset_total(test, dl, ST_BW_DEFAULT + 1);
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(span, one), 0);
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(span, none), 0);
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(span, span), 1);
	/* ...but an empty cpuset has nothing to keep. */
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(none, one), 1);
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(none, none), 1);
	/* Exactly one CPU's worth. */
	sched_test_dl_preset_total(test, dl, ST_BW_DEFAULT);
	KUNIT_EXPECT_EQ(test, cpuset_cpumask_can_shrink(span, one), 1);
#else
	kunit_skip(test, "UP: no cpusets");
#endif
}

static struct kunit_case dls_cases[] = {
	KUNIT_CASE(sched_setscheduler_fork_state),
	KUNIT_CASE_PARAM(sched_setscheduler_deadline, dls_dl_gen_params),
	KUNIT_CASE(sched_setscheduler_sugov_user),
	KUNIT_CASE(sched_setscheduler_deadline_leave),
	KUNIT_CASE(sched_setscheduler_deadline_change),
	KUNIT_CASE(sched_setscheduler_deadline_change_refused),
	KUNIT_CASE(sched_setscheduler_deadline_change_same_bw),
	KUNIT_CASE(sched_setscheduler_deadline_change_affinity),
	KUNIT_CASE(sched_setscheduler_deadline_boosted),
	KUNIT_CASE(sched_setscheduler_deadline_boosted_earlier),
	KUNIT_CASE(sched_setscheduler_boosted_by_deadline),
	KUNIT_CASE(sched_setscheduler_rt_group_user_refused),
	KUNIT_CASE(sched_setscheduler_rt_group_kernel_allowed),
	KUNIT_CASE(sched_setscheduler_rt_group_with_runtime),
	KUNIT_CASE(sched_setscheduler_admission_off_deadline),
	KUNIT_CASE(sched_setscheduler_admission_off_rt_group),
	KUNIT_CASE(sched_setscheduler_deadline_root_domain),
	KUNIT_CASE(sched_setscheduler_deadline_no_bandwidth),
	KUNIT_CASE(sched_setscheduler_deadline_affinity),
	KUNIT_CASE(sched_setscheduler_cpuset_can_shrink),
	/* Must stay last. */
	{ .run_case = sched_test_dl_suite_state_kept,
	  .name = "sched_setscheduler_state_kept" },
	{}
};

static struct kunit_suite dls_suite = {
	.name = "sched_setscheduler",
	.suite_init = sched_test_dl_suite_init,
	.suite_exit = sched_test_dl_suite_exit,
	.init = dls_init,
	.exit = dls_exit,
	.test_cases = dls_cases,
};

kunit_test_suite(dls_suite);
