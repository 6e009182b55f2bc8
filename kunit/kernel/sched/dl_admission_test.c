// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for SCHED_DEADLINE admission control.
 *
 * sched_dl_overflow: sched_dl_overflow(), which admits a task into
 * SCHED_DEADLINE, or a change of its parameters, against the bandwidth
 * left in its root domain (SMP) or runqueue (UP).
 *
 * sched_dl_bw: dl_bw_check_overflow(), dl_bw_alloc(), dl_bw_free() and
 * dl_cpuset_cpumask_can_shrink(), which cpusets and CPU hotplug use to
 * keep the admitted bandwidth within the CPUs that remain. Pitre's 2017
 * series moved these checks out of core.c as dl_cpu_busy(); stable 6.1.50
 * replaced dl_cpu_busy() with the three dl_bw_*() functions (upstream
 * 85989106feb7). They exist only with CONFIG_SMP: on UP every case of this
 * suite skips, saying so.
 *
 * The test task is built the way the kernel builds one (timers initialised,
 * __dl_clear_params()) but is never enqueued: nothing real is scheduled.
 * The cases drive the accounting to its boundaries by writing the total
 * bandwidth of the root domain (or runqueue) directly. Every case saves,
 * under the locks that guard them, the dl_bw of every CPU (bw, total_bw)
 * and the dl_rq fields that __dl_add(), __dl_sub() and
 * dl_change_utilization() move (extra_bw, this_bw, running_bw); its exit
 * restores them, and the last case of each suite checks that they are as
 * the suite found them.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

/* 95% of a CPU, the default sched_rt_runtime_us / sched_rt_period_us. */
#define DLA_DEFAULT_BW	996147ULL
#define DLA_MS		NSEC_PER_MSEC
/*
 * A total far above any capacity: (u64)-1 scaled by the capacity wraps to
 * about 2^54, so a check that forgot the bw == -1 case would refuse it.
 */
#define DLA_HUGE_TOTAL	BIT_ULL(62)

struct dla_cpu {
	void *domain;	/* the root domain (SMP) or runqueue (UP) it belongs to */
	u64 bw;
	u64 total_bw;
	u64 running_bw;
	u64 this_bw;
	u64 extra_bw;
};

struct dla_state {
	struct dla_cpu *cpu;	/* nr_cpu_ids entries */
};

/* What the suites found at start: their last case compares with it. */
static struct dla_state dla_suite_start;

static int dla_alloc_state(struct kunit *test, struct dla_state *s)
{
	s->cpu = kunit_kcalloc(test, nr_cpu_ids, sizeof(*s->cpu), GFP_KERNEL);
	return s->cpu ? 0 : -ENOMEM;
}

/*
 * sched_dl_overflow() runs under the runqueue lock of its task and takes
 * the dl_bw lock inside it: the same order here.
 */
static void *dla_domain_ptr(int cpu)
{
#ifdef CONFIG_SMP
	return cpu_rq(cpu)->rd;
#else
	return cpu_rq(cpu);
#endif
}

static struct dl_bw *dla_lock(int cpu, struct rq_flags *rf)
{
	struct dl_bw *dl_b;

	rq_lock_irqsave(cpu_rq(cpu), rf);
	dl_b = dl_bw_of(cpu);
	raw_spin_lock(&dl_b->lock);
	return dl_b;
}

static void dla_unlock(int cpu, struct dl_bw *dl_b, struct rq_flags *rf)
{
	raw_spin_unlock(&dl_b->lock);
	rq_unlock_irqrestore(cpu_rq(cpu), rf);
}

static void dla_save(struct dla_state *s)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct dl_rq *dl = &cpu_rq(cpu)->dl;
		struct dla_cpu *c = &s->cpu[cpu];
		struct rq_flags rf;
		struct dl_bw *dl_b = dla_lock(cpu, &rf);

		c->domain = dla_domain_ptr(cpu);
		c->bw = dl_b->bw;
		c->total_bw = dl_b->total_bw;
		c->running_bw = dl->running_bw;
		c->this_bw = dl->this_bw;
		c->extra_bw = dl->extra_bw;
		dla_unlock(cpu, dl_b, &rf);
	}
}

/*
 * Put the saved values back. If a root domain was rebuilt meanwhile (CPU
 * hotplug, a cpuset change), the saved values belong to a domain that is
 * gone: refuse, and say so, rather than clobber the new one.
 */
static void dla_restore(struct kunit *test, const struct dla_state *s)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (dla_domain_ptr(cpu) != s->cpu[cpu].domain) {
			KUNIT_FAIL(test, "CPU%d changed root domain during the test: not restored",
				   cpu);
			return;
		}
	}
	for_each_possible_cpu(cpu) {
		struct dl_rq *dl = &cpu_rq(cpu)->dl;
		const struct dla_cpu *c = &s->cpu[cpu];
		struct rq_flags rf;
		struct dl_bw *dl_b = dla_lock(cpu, &rf);

		dl_b->bw = c->bw;
		dl_b->total_bw = c->total_bw;
		dl->running_bw = c->running_bw;
		dl->this_bw = c->this_bw;
		dl->extra_bw = c->extra_bw;
		dla_unlock(cpu, dl_b, &rf);
	}
}

static void dla_expect_state(struct kunit *test, const struct dla_state *want,
			     const char *when)
{
	struct dla_state got;
	int cpu;

	KUNIT_ASSERT_EQ(test, dla_alloc_state(test, &got), 0);
	dla_save(&got);
	for_each_possible_cpu(cpu) {
		const struct dla_cpu *g = &got.cpu[cpu], *w = &want->cpu[cpu];

		KUNIT_EXPECT_PTR_EQ_MSG(test, g->domain, w->domain,
					"CPU%d domain %s", cpu, when);
		KUNIT_EXPECT_EQ_MSG(test, g->bw, w->bw, "CPU%d bw %s", cpu, when);
		KUNIT_EXPECT_EQ_MSG(test, g->total_bw, w->total_bw,
				    "CPU%d total_bw %s", cpu, when);
		KUNIT_EXPECT_EQ_MSG(test, g->running_bw, w->running_bw,
				    "CPU%d running_bw %s", cpu, when);
		KUNIT_EXPECT_EQ_MSG(test, g->this_bw, w->this_bw,
				    "CPU%d this_bw %s", cpu, when);
		KUNIT_EXPECT_EQ_MSG(test, g->extra_bw, w->extra_bw,
				    "CPU%d extra_bw %s", cpu, when);
	}
}

/* Does @other share the admission-control domain (dl_bw) of @cpu? */
static bool dla_same_domain(int cpu, int other)
{
#ifdef CONFIG_SMP
	return cpu_rq(cpu)->rd == cpu_rq(other)->rd;
#else
	return cpu == other;
#endif
}

/* Does admitting bandwidth in @cpu's domain move @other's extra_bw? */
static bool dla_shares_extra(int cpu, int other)
{
#ifdef CONFIG_SMP
	return dla_same_domain(cpu, other) && cpu_active(other);
#else
	return cpu == other;
#endif
}

/*
 * The model of the accounting: admitting @bw in @cpu's domain adds it to
 * the domain's total and takes an equal share, (s32)bw / cpus, from the
 * extra_bw of each of its active CPUs; releasing it does the opposite.
 */
static void dla_model_add(struct dla_state *s, int cpu, s64 bw, int cpus)
{
	int other;

	for_each_possible_cpu(other) {
		if (dla_same_domain(cpu, other))
			s->cpu[other].total_bw += bw;
		if (dla_shares_extra(cpu, other))
			s->cpu[other].extra_bw -= (s32)bw / cpus;
	}
}

static void dla_model_set_total(struct dla_state *s, int cpu, u64 total)
{
	int other;

	for_each_possible_cpu(other)
		if (dla_same_domain(cpu, other))
			s->cpu[other].total_bw = total;
}

/* The domain of @cpu: its CPUs, capacity and admission limit. */
struct dla_domain {
	int cpus;
	unsigned long cap;
	u64 bw;
	u64 limit;
};

static struct dla_domain dla_domain_of(int cpu)
{
	struct dla_domain d;
	struct rq_flags rf;
	struct dl_bw *dl_b = dla_lock(cpu, &rf);

	d.cpus = dl_bw_cpus(cpu);
	d.cap = dl_bw_capacity(cpu);
	d.bw = dl_b->bw;
	d.limit = cap_scale(dl_b->bw, d.cap);
	dla_unlock(cpu, dl_b, &rf);
	return d;
}

/* Set the total admitted bandwidth of @cpu's domain, in the kernel and @s. */
static void dla_set_total(struct dla_state *s, int cpu, u64 total)
{
	struct rq_flags rf;
	struct dl_bw *dl_b = dla_lock(cpu, &rf);

	dl_b->total_bw = total;
	dla_unlock(cpu, dl_b, &rf);
	dla_model_set_total(s, cpu, total);
}

static void dla_set_bw(struct dla_state *s, int cpu, u64 bw)
{
	struct rq_flags rf;
	struct dl_bw *dl_b = dla_lock(cpu, &rf);
	int other;

	dl_b->bw = bw;
	dla_unlock(cpu, dl_b, &rf);
	for_each_possible_cpu(other)
		if (dla_same_domain(cpu, other))
			s->cpu[other].bw = bw;
}

/* Per case: the state at its start, restored by its exit. */
struct dla_ctx {
	struct dla_state saved;
	struct dla_state want;
	struct task_struct *p;
	int cpu;
};

/*
 * A task as fork makes one (sched timers initialised, deadline parameters
 * cleared), SCHED_NORMAL, on CPU 0 (kzalloc: task_cpu() reads
 * p->thread_info.cpu), never enqueued.
 */
static struct task_struct *dla_task(struct kunit *test)
{
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	init_dl_task_timer(&p->dl);
	init_dl_inactive_task_timer(&p->dl);
	/*
	 * Cleared parameters, as __dl_clear_params() leaves them (not called:
	 * its argument changes with the series).
	 */
#ifdef CONFIG_RT_MUTEXES
	p->dl.pi_se = &p->dl;
#endif
	p->policy = SCHED_NORMAL;
	p->static_prio = DEFAULT_PRIO;
	p->normal_prio = DEFAULT_PRIO;
	p->prio = DEFAULT_PRIO;
	return p;
}

static int dla_init(struct kunit *test)
{
	struct dla_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	if (!ctx || dla_alloc_state(test, &ctx->saved) ||
	    dla_alloc_state(test, &ctx->want))
		return -ENOMEM;
	dla_save(&ctx->saved);
	memcpy(ctx->want.cpu, ctx->saved.cpu, nr_cpu_ids * sizeof(*ctx->want.cpu));
	/* Set before anything can fail: .exit runs even when .init fails. */
	test->priv = ctx;
	ctx->p = dla_task(test);
	ctx->cpu = task_cpu(ctx->p);
	return 0;
}

static void dla_exit(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;

	if (!ctx || !ctx->saved.cpu)
		return;
	if (ctx->p)
		hrtimer_cancel(&ctx->p->dl.inactive_timer);
	dla_restore(test, &ctx->saved);
}

static int dla_suite_init(struct kunit_suite *suite)
{
	dla_suite_start.cpu = kcalloc(nr_cpu_ids, sizeof(*dla_suite_start.cpu),
				      GFP_KERNEL);
	if (!dla_suite_start.cpu)
		return -ENOMEM;
	dla_save(&dla_suite_start);
	return 0;
}

static void dla_suite_exit(struct kunit_suite *suite)
{
	kfree(dla_suite_start.cpu);
	dla_suite_start.cpu = NULL;
}

static void dla_state_restored(struct kunit *test)
{
	dla_expect_state(test, &dla_suite_start, "since the suite started");
}

/* sched_dl_overflow() as __sched_setscheduler() calls it: rq locked. */
static int dla_overflow(struct task_struct *p, int policy, u64 flags,
			u64 runtime, u64 deadline, u64 period)
{
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= policy,
		.sched_flags	= flags,
		.sched_runtime	= runtime,
		.sched_deadline	= deadline,
		.sched_period	= period,
	};
	struct rq *rq = task_rq(p);
	struct rq_flags rf;
	int ret;

	rq_lock_irqsave(rq, &rf);
	ret = sched_dl_overflow(p, policy, &attr);
	rq_unlock_irqrestore(rq, &rf);
	return ret;
}

/*
 * Make the test task a SCHED_DEADLINE task holding @bw, as if admitted
 * earlier: the domain's total and this runqueue's this_bw include it.
 */
static void dla_make_dl(struct dla_ctx *ctx, u64 bw)
{
	struct dla_domain d = dla_domain_of(ctx->cpu);
	struct rq_flags rf;
	struct dl_bw *dl_b = dla_lock(ctx->cpu, &rf);

	__dl_add(dl_b, bw, d.cpus);
	cpu_rq(ctx->cpu)->dl.this_bw += bw;
	dla_unlock(ctx->cpu, dl_b, &rf);
	dla_model_add(&ctx->want, ctx->cpu, bw, d.cpus);
	ctx->want.cpu[ctx->cpu].this_bw += bw;
	ctx->p->policy = SCHED_DEADLINE;
	ctx->p->dl.dl_bw = bw;
}

/* 10 ms every 100 ms: 0.1 in BW_SHIFT fixed point, rounded down. */
#define DLA_BW_10_100	104857ULL
/* 10 ms every 50 ms. */
#define DLA_BW_10_50	209715ULL
/* 20 ms every 100 ms. */
#define DLA_BW_20_100	209715ULL
/* 5 ms every 100 ms. */
#define DLA_BW_5_100	52428ULL

static void overflow_fixed_point(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, to_ratio(100 * DLA_MS, 10 * DLA_MS), DLA_BW_10_100);
	KUNIT_EXPECT_EQ(test, to_ratio(50 * DLA_MS, 10 * DLA_MS), DLA_BW_10_50);
	KUNIT_EXPECT_EQ(test, to_ratio(100 * DLA_MS, 20 * DLA_MS), DLA_BW_20_100);
	KUNIT_EXPECT_EQ(test, to_ratio(100 * DLA_MS, 5 * DLA_MS), DLA_BW_5_100);
	KUNIT_EXPECT_EQ(test, to_ratio(100 * DLA_MS, 100 * DLA_MS), (u64)BW_UNIT);
}

/* The admission limit follows the cell: 95% of each active CPU. */
static void overflow_capacity(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);
	int cpus = IS_ENABLED(CONFIG_SMP) ? num_active_cpus() : 1;

	KUNIT_EXPECT_EQ(test, d.cpus, cpus);
	KUNIT_EXPECT_EQ(test, d.cap, (unsigned long)cpus << SCHED_CAPACITY_SHIFT);
	KUNIT_EXPECT_EQ(test, d.bw, DLA_DEFAULT_BW);
	KUNIT_EXPECT_EQ(test, d.limit, DLA_DEFAULT_BW * cpus);
}

/* A task entering SCHED_DEADLINE: admitted while it fits. */
struct dla_enter_case {
	const char *desc;
	u64 runtime, deadline, period;
	u64 bw;		/* what to_ratio() makes of them */
	s64 headroom;	/* limit - (total before + bw) */
};

static const struct dla_enter_case dla_enter_cases[] = {
	{ "fits with room to spare", 10 * DLA_MS, 100 * DLA_MS, 100 * DLA_MS,
	  DLA_BW_10_100, 1000 },
	{ "fits exactly", 10 * DLA_MS, 100 * DLA_MS, 100 * DLA_MS,
	  DLA_BW_10_100, 0 },
	{ "one unit over", 10 * DLA_MS, 100 * DLA_MS, 100 * DLA_MS,
	  DLA_BW_10_100, -1 },
	{ "period 0 uses the deadline, fits exactly", 10 * DLA_MS,
	  50 * DLA_MS, 0, DLA_BW_10_50, 0 },
	{ "period 0 uses the deadline, one unit over", 10 * DLA_MS,
	  50 * DLA_MS, 0, DLA_BW_10_50, -1 },
	{ "into an empty domain", 10 * DLA_MS, 100 * DLA_MS, 100 * DLA_MS,
	  DLA_BW_10_100, S64_MAX },
};

static void dla_enter_desc(const struct dla_enter_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dla_enter, dla_enter_cases, dla_enter_desc);

static void overflow_enter_dl(struct kunit *test)
{
	const struct dla_enter_case *c = test->param_value;
	struct dla_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);
	u64 total = c->headroom == S64_MAX ? 0 : d.limit - c->bw - c->headroom;
	bool fits = c->headroom >= 0;
	int ret;

	dla_set_total(&ctx->want, ctx->cpu, total);
	ret = dla_overflow(ctx->p, SCHED_DEADLINE, 0, c->runtime, c->deadline,
			   c->period);
	KUNIT_EXPECT_EQ(test, ret, fits ? 0 : -1);
	if (fits)
		dla_model_add(&ctx->want, ctx->cpu, c->bw, d.cpus);
	dla_expect_state(test, &ctx->want, "after admission");
	if (fits)
		KUNIT_EXPECT_EQ(test, ctx->want.cpu[ctx->cpu].total_bw, total + c->bw);
}

/* A SCHED_DEADLINE task changing its parameters. */
struct dla_change_case {
	const char *desc;
	u64 old_bw;
	u64 runtime, period;
	u64 new_bw;
	s64 headroom;	/* limit - (total before - old_bw + new_bw) */
	int ret;
};

static const struct dla_change_case dla_change_cases[] = {
	{ "grow within capacity", DLA_BW_10_100, 20 * DLA_MS, 100 * DLA_MS,
	  DLA_BW_20_100, 1000, 0 },
	{ "grow to exactly the capacity", DLA_BW_10_100, 20 * DLA_MS,
	  100 * DLA_MS, DLA_BW_20_100, 0, 0 },
	{ "grow one unit past the capacity", DLA_BW_10_100, 20 * DLA_MS,
	  100 * DLA_MS, DLA_BW_20_100, -1, -1 },
	{ "shrink", DLA_BW_10_100, 5 * DLA_MS, 100 * DLA_MS, DLA_BW_5_100,
	  1000, 0 },
	/*
	 * 6.1 refuses even a shrink while the domain is over capacity (the
	 * XXX in sched_dl_overflow()): pinned here as the behaviour to keep.
	 */
	{ "shrink while the domain is over capacity", DLA_BW_10_100,
	  5 * DLA_MS, 100 * DLA_MS, DLA_BW_5_100, -1, -1 },
	{ "same bandwidth, domain over capacity: no change", DLA_BW_10_100,
	  10 * DLA_MS, 100 * DLA_MS, DLA_BW_10_100, -1000, 0 },
};

static void dla_change_desc(const struct dla_change_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dla_change, dla_change_cases, dla_change_desc);

static void overflow_change_dl(struct kunit *test)
{
	const struct dla_change_case *c = test->param_value;
	struct dla_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);
	bool same = c->new_bw == c->old_bw;
	int ret;

	dla_make_dl(ctx, c->old_bw);
	dla_set_total(&ctx->want, ctx->cpu,
		      d.limit + c->old_bw - c->new_bw - c->headroom);
	ret = dla_overflow(ctx->p, SCHED_DEADLINE, 0, c->runtime,
			   c->period, c->period);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (!ret && !same) {
		dla_model_add(&ctx->want, ctx->cpu, -(s64)c->old_bw, d.cpus);
		dla_model_add(&ctx->want, ctx->cpu, c->new_bw, d.cpus);
		ctx->want.cpu[ctx->cpu].this_bw += c->new_bw - c->old_bw;
	}
	dla_expect_state(test, &ctx->want, "after the change");
}

/* Leaving SCHED_DEADLINE: allowed, the bandwidth is released later. */
static void overflow_leave_dl(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;

	dla_make_dl(ctx, DLA_BW_10_100);
	KUNIT_EXPECT_EQ(test, dla_overflow(ctx->p, SCHED_NORMAL, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, dla_overflow(ctx->p, SCHED_FIFO, 0, 0, 0, 0), 0);
	dla_expect_state(test, &ctx->want, "after leaving");
}

/*
 * A task that left SCHED_DEADLINE keeps its bandwidth until its 0-lag time,
 * while its inactive timer is armed: entering again swaps the old bandwidth
 * for the new one instead of adding to it.
 */
static void overflow_reenter_dl(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);
	int ret;

	dla_make_dl(ctx, DLA_BW_10_100);
	ctx->p->policy = SCHED_NORMAL;
	/* Far in the future: it must not fire on the test task. */
	hrtimer_start(&ctx->p->dl.inactive_timer, ms_to_ktime(3600 * MSEC_PER_SEC),
		      HRTIMER_MODE_REL_HARD);
	ret = dla_overflow(ctx->p, SCHED_DEADLINE, 0, 20 * DLA_MS, 100 * DLA_MS,
			   100 * DLA_MS);
	hrtimer_cancel(&ctx->p->dl.inactive_timer);
	KUNIT_EXPECT_EQ(test, ret, 0);
	dla_model_add(&ctx->want, ctx->cpu, -(s64)DLA_BW_10_100, d.cpus);
	dla_model_add(&ctx->want, ctx->cpu, DLA_BW_20_100, d.cpus);
	dla_expect_state(test, &ctx->want, "after entering again");
}

/* SCHED_FLAG_SUGOV tasks are not accounted, whatever the parameters. */
static void overflow_sugov(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);

	dla_set_total(&ctx->want, ctx->cpu, d.limit + 1);
	KUNIT_EXPECT_EQ(test, dla_overflow(ctx->p, SCHED_DEADLINE,
					   SCHED_FLAG_SUGOV, 10 * DLA_MS,
					   100 * DLA_MS, 100 * DLA_MS), 0);
	dla_expect_state(test, &ctx->want, "after a sugov admission");
}

/* dl_b->bw == -1 (sched_rt_runtime_us = -1): everything is admitted. */
static void overflow_admission_disabled(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);

	/* Far past any capacity: -1 must not be read as a huge limit. */
	dla_set_total(&ctx->want, ctx->cpu, DLA_HUGE_TOTAL);
	dla_set_bw(&ctx->want, ctx->cpu, (u64)-1);
	KUNIT_EXPECT_EQ(test, dla_overflow(ctx->p, SCHED_DEADLINE, 0,
					   100 * DLA_MS, 100 * DLA_MS,
					   100 * DLA_MS), 0);
	dla_model_add(&ctx->want, ctx->cpu, BW_UNIT, d.cpus);
	dla_expect_state(test, &ctx->want, "after admission with bw -1");
}

static struct kunit_case dla_overflow_cases[] = {
	KUNIT_CASE(overflow_fixed_point),
	KUNIT_CASE(overflow_capacity),
	KUNIT_CASE_PARAM(overflow_enter_dl, dla_enter_gen_params),
	KUNIT_CASE_PARAM(overflow_change_dl, dla_change_gen_params),
	KUNIT_CASE(overflow_leave_dl),
	KUNIT_CASE(overflow_reenter_dl),
	KUNIT_CASE(overflow_sugov),
	KUNIT_CASE(overflow_admission_disabled),
	/* Must stay last. */
	{ .run_case = dla_state_restored, .name = "state_restored" },
	{}
};

static struct kunit_suite dla_overflow_suite = {
	.name = "sched_dl_overflow",
	.suite_init = dla_suite_init,
	.suite_exit = dla_suite_exit,
	.init = dla_init,
	.exit = dla_exit,
	.test_cases = dla_overflow_cases,
};

/* sched_dl_bw */

#ifdef CONFIG_SMP
/* dl_bw_check_overflow(): is the admitted total within the capacity? */
static void bw_check_overflow(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);

	dla_set_total(&ctx->want, ctx->cpu, 0);
	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), 0);
	dla_set_total(&ctx->want, ctx->cpu, d.limit - 1);
	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), 0);
	dla_set_total(&ctx->want, ctx->cpu, d.limit);
	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), 0);
	dla_set_total(&ctx->want, ctx->cpu, d.limit + 1);
	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), -EBUSY);
	dla_expect_state(test, &ctx->want, "after checks");
}

/* dl_bw_alloc(): reserves exactly the request, or nothing. */
static void bw_alloc(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);

	dla_set_total(&ctx->want, ctx->cpu, d.limit - DLA_BW_10_100 - 1);
	KUNIT_EXPECT_EQ(test, dl_bw_alloc(ctx->cpu, DLA_BW_10_100), 0);
	dla_model_add(&ctx->want, ctx->cpu, DLA_BW_10_100, d.cpus);
	dla_expect_state(test, &ctx->want, "after alloc with room");

	/* The total is now one unit under the limit: it fits exactly. */
	KUNIT_EXPECT_EQ(test, dl_bw_alloc(ctx->cpu, 1), 0);
	dla_model_add(&ctx->want, ctx->cpu, 1, d.cpus);
	dla_expect_state(test, &ctx->want, "after alloc to the limit");
	KUNIT_EXPECT_EQ(test, ctx->want.cpu[ctx->cpu].total_bw, d.limit);

	/* Full: one more unit is refused and changes nothing. */
	KUNIT_EXPECT_EQ(test, dl_bw_alloc(ctx->cpu, 1), -EBUSY);
	KUNIT_EXPECT_EQ(test, dl_bw_alloc(ctx->cpu, DLA_BW_10_100), -EBUSY);
	dla_expect_state(test, &ctx->want, "after refused allocs");
}

/* dl_bw_free() gives back exactly what dl_bw_alloc() took. */
static void bw_alloc_free(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);
	struct rnd_state rnd;
	u64 held[8] = { };
	int i;

	dla_set_total(&ctx->want, ctx->cpu, 0);
	KUNIT_EXPECT_EQ(test, dl_bw_alloc(ctx->cpu, DLA_BW_10_100), 0);
	dla_model_add(&ctx->want, ctx->cpu, DLA_BW_10_100, d.cpus);
	dla_expect_state(test, &ctx->want, "after alloc");
	dl_bw_free(ctx->cpu, DLA_BW_10_100);
	dla_model_add(&ctx->want, ctx->cpu, -(s64)DLA_BW_10_100, d.cpus);
	dla_expect_state(test, &ctx->want, "after free");

	/* Interleaved allocs and frees of odd sizes leave no residue. */
	prandom_seed_state(&rnd, 0xdeadb1d5ULL);
	for (i = 0; i < 1000; i++) {
		int slot = prandom_u32_state(&rnd) % ARRAY_SIZE(held);

		if (held[slot]) {
			dl_bw_free(ctx->cpu, held[slot]);
			held[slot] = 0;
		} else {
			u64 bw = prandom_u32_state(&rnd) % (BW_UNIT / 4) + 1;

			if (!dl_bw_alloc(ctx->cpu, bw))
				held[slot] = bw;
		}
	}
	for (i = 0; i < ARRAY_SIZE(held); i++)
		if (held[i])
			dl_bw_free(ctx->cpu, held[i]);
	dla_expect_state(test, &ctx->want, "after 1000 allocs and frees");
}

/* dl_b->bw == -1: never busy, every alloc succeeds. */
static void bw_admission_disabled(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);

	dla_set_bw(&ctx->want, ctx->cpu, (u64)-1);
	dla_set_total(&ctx->want, ctx->cpu, DLA_HUGE_TOTAL);
	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), 0);
	KUNIT_EXPECT_EQ(test, dl_bw_alloc(ctx->cpu, BW_UNIT), 0);
	dla_model_add(&ctx->want, ctx->cpu, BW_UNIT, d.cpus);
	dla_expect_state(test, &ctx->want, "after alloc with bw -1");
}

/*
 * dl_cpuset_cpumask_can_shrink(): may a cpuset drop CPUs, given what its
 * root domain has admitted? Trial masks of the first 1..n active CPUs.
 */
static void bw_cpumask_can_shrink(struct kunit *test)
{
	struct dla_ctx *ctx = test->priv;
	struct dla_domain d = dla_domain_of(ctx->cpu);
	struct cpumask *trial = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	struct cpumask *cur = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	int cpu, n = 0;

	KUNIT_ASSERT_NOT_NULL(test, trial);
	KUNIT_ASSERT_NOT_NULL(test, cur);
	rcu_read_lock_sched();
	cpumask_copy(cur, cpu_rq(ctx->cpu)->rd->span);
	rcu_read_unlock_sched();
	KUNIT_ASSERT_GE(test, d.cpus, 2);
	for_each_cpu_and(cpu, cur, cpu_active_mask) {
		u64 fits;

		n++;
		fits = cap_scale(d.bw, (u64)n << SCHED_CAPACITY_SHIFT);
		cpumask_set_cpu(cpu, trial);
		dla_set_total(&ctx->want, ctx->cpu, fits);
		KUNIT_EXPECT_EQ_MSG(test, dl_cpuset_cpumask_can_shrink(cur, trial), 1,
				    "%d CPUs, total at their capacity", n);
		dla_set_total(&ctx->want, ctx->cpu, fits + 1);
		KUNIT_EXPECT_EQ_MSG(test, dl_cpuset_cpumask_can_shrink(cur, trial), 0,
				    "%d CPUs, total one unit over", n);
	}
	KUNIT_EXPECT_EQ(test, n, d.cpus);
	dla_expect_state(test, &ctx->want, "after shrink checks");
}

#define DLA_BW_CASE(fn) KUNIT_CASE(fn)
#else
/*
 * Same case names on UP, each skipped with the reason: written out rather
 * than KUNIT_CASE() because the functions do not exist without CONFIG_SMP,
 * and a skipped parameter of a parameterised case would print as passed.
 */
static void dla_skip_up(struct kunit *test)
{
	kunit_skip(test, "dl_bw_*() are SMP-only: CONFIG_SMP is not set");
}

#define DLA_BW_CASE(fn) { .run_case = dla_skip_up, .name = #fn }
#endif /* CONFIG_SMP */

static struct kunit_case dla_bw_cases[] = {
	DLA_BW_CASE(bw_check_overflow),
	DLA_BW_CASE(bw_alloc),
	DLA_BW_CASE(bw_alloc_free),
	DLA_BW_CASE(bw_admission_disabled),
	DLA_BW_CASE(bw_cpumask_can_shrink),
	/* Must stay last. */
	{ .run_case = dla_state_restored, .name = "state_restored" },
	{}
};

static struct kunit_suite dla_bw_suite = {
	.name = "sched_dl_bw",
	.suite_init = dla_suite_init,
	.suite_exit = dla_suite_exit,
	.init = dla_init,
	.exit = dla_exit,
	.test_cases = dla_bw_cases,
};

kunit_test_suites(&dla_overflow_suite, &dla_bw_suite);

