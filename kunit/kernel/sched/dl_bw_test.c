// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the deadline bandwidth of a whole domain, as cpusets,
 * CPU hotplug and the sched_rt_runtime_us sysctl see it:
 *
 *  - dl_bw_check_overflow(), dl_bw_alloc(), dl_bw_free() and
 *    dl_cpuset_cpumask_can_shrink(), SMP only. Pitre's 2017 series moved
 *    these checks out of core.c as dl_cpu_busy(); stable 6.1.50 replaced
 *    dl_cpu_busy() with the three dl_bw_*() functions (upstream
 *    85989106feb7). On UP their cases skip, saying so.
 *  - sched_dl_global_validate(), which refuses a new global limit below
 *    what a domain has admitted, through the sysctl handler.
 *  - On 6.12 (ST_FAIR_SERVER), what that bandwidth buys the fair
 *    server: fair tasks run beside an RT task that never sleeps.
 *
 * The accounting rules of sched_test_util.h apply: presets and
 * allocations are deltas through the kernel's own calls, given back the
 * same way; expected values come from the model.
 */
#include "sched_test_util.h"
#include <linux/prandom.h>

static int dlb_init(struct kunit *test)
{
	struct sched_test_dl_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;
	return sched_test_dl_ctx_init(test, ctx, "dl_bw_test");
}

static void dlb_exit(struct kunit *test)
{
	struct sched_test_dl_ctx *ctx = test->priv;

	if (ctx)
		sched_test_dl_ctx_exit(test, ctx);
	sched_test_global_kept(test);
}

#ifdef CONFIG_SMP
/* dl_bw_alloc(), and the model following it when it succeeds. */
static int dlb_alloc(struct sched_test_dl_ctx *ctx, u64 bw)
{
	int ret = dl_bw_alloc(ctx->cpu, bw);

	if (!ret)
		sched_test_dl_model_add(&ctx->want, ctx->cpu, bw, ctx->d.cpus);
	return ret;
}

static void dlb_free(struct sched_test_dl_ctx *ctx, u64 bw)
{
	dl_bw_free(ctx->cpu, bw);
	sched_test_dl_model_add(&ctx->want, ctx->cpu, -(s64)bw, ctx->d.cpus);
}

/* dl_bw_check_overflow(): is the admitted total within the capacity? */
static void sched_dl_bw_check_overflow(struct kunit *test)
{
	struct sched_test_dl_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), 0);
	sched_test_dl_preset_total(test, ctx, ctx->d.limit - 1);
	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), 0);
	sched_test_dl_preset_total(test, ctx, ctx->d.limit);
	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), 0);
	sched_test_dl_preset_total(test, ctx, ctx->d.limit + 1);
	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), -EBUSY);
	sched_test_dl_expect(test, &ctx->want, "after the checks");
}

/* dl_bw_alloc(): reserves exactly the request, or nothing. */
static void sched_dl_bw_alloc(struct kunit *test)
{
	struct sched_test_dl_ctx *ctx = test->priv;
	int ret, ret1;

	sched_test_dl_preset_total(test, ctx, ctx->d.limit - ST_BW_10_100 - 1);
	ret = dlb_alloc(ctx, ST_BW_10_100);
	KUNIT_EXPECT_EQ(test, ret, 0);
	sched_test_dl_expect(test, &ctx->want, "after an alloc with room");

	/* One unit under the limit: one more unit fits exactly. */
	ret1 = dlb_alloc(ctx, 1);
	KUNIT_EXPECT_EQ(test, ret1, 0);
	sched_test_dl_expect(test, &ctx->want, "after an alloc to the limit");

	/* Full: one more unit is refused and changes nothing. */
	KUNIT_EXPECT_EQ(test, dlb_alloc(ctx, 1), -EBUSY);
	KUNIT_EXPECT_EQ(test, dlb_alloc(ctx, ST_BW_10_100), -EBUSY);
	sched_test_dl_expect(test, &ctx->want, "after refused allocs");

	/* What was allocated is freed, as its users do; nothing else. */
	if (!ret1)
		dlb_free(ctx, 1);
	if (!ret)
		dlb_free(ctx, ST_BW_10_100);
	sched_test_dl_expect(test, &ctx->want, "after the frees");
}

/*
 * dl_bw_free() gives back exactly what dl_bw_alloc() took: interleaved
 * allocations and frees of odd sizes, each result checked against the
 * model, in a domain preset to 3/4 full so that some must be refused.
 * The sizes go up to 1/8 of the domain's limit, so that the 8 slots,
 * full, hold about twice the room left whatever the CPU count (about 200
 * of 500-600 allocations are refused from 2 to 64 CPUs, in a model of
 * this sequence); with sizes up to a quarter of one CPU, 8 CPUs never ran
 * out of room.
 */
static void sched_dl_bw_alloc_free(struct kunit *test)
{
	struct sched_test_dl_ctx *ctx = test->priv;
	u64 *total = &ctx->want.cpu[ctx->cpu].total_bw;
	u32 span = ctx->d.limit / 8;
	struct rnd_state rnd;
	u64 held[8] = { };
	int i, refused = 0;

	KUNIT_ASSERT_GT(test, span, 0U);
	sched_test_dl_preset_total(test, ctx, ctx->d.limit / 4 * 3);
	prandom_seed_state(&rnd, 0xdeadb1d5ULL);
	for (i = 0; i < 1000; i++) {
		int slot = prandom_u32_state(&rnd) % ARRAY_SIZE(held);
		u64 bw;
		bool fits;

		if (held[slot]) {
			dlb_free(ctx, held[slot]);
			held[slot] = 0;
			continue;
		}
		bw = prandom_u32_state(&rnd) % span + 1;
		fits = *total + bw <= ctx->d.limit;
		KUNIT_EXPECT_EQ_MSG(test, dlb_alloc(ctx, bw), fits ? 0 : -EBUSY,
				    "alloc %llu with %llu of %llu admitted",
				    bw, *total, ctx->d.limit);
		if (fits)
			held[slot] = bw;
		else
			refused++;
	}
	for (i = 0; i < ARRAY_SIZE(held); i++)
		if (held[i])
			dlb_free(ctx, held[i]);
	/* The table does what it says: both outcomes happened. */
	KUNIT_EXPECT_GT(test, refused, 0);
	KUNIT_EXPECT_LT(test, refused, 500);
	sched_test_dl_expect(test, &ctx->want, "after 1000 allocs and frees");
}

/* sched_rt_runtime_us = -1: never busy, every alloc succeeds. */
static void sched_dl_bw_admission_off(struct kunit *test)
{
	struct sched_test_dl_ctx *ctx = test->priv;
	int ret;

	KUNIT_ASSERT_EQ(test, sched_test_dl_rt_runtime(test, ctx, -1, (u64)-1), 0);
	sched_test_dl_preset_total(test, ctx, ST_HUGE_TOTAL);
	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), 0);
	ret = dlb_alloc(ctx, ST_BW_UNIT);
	KUNIT_EXPECT_EQ(test, ret, 0);
	sched_test_dl_expect(test, &ctx->want, "after an alloc with bw -1");
	if (!ret)
		dlb_free(ctx, ST_BW_UNIT);
}

/*
 * dl_cpuset_cpumask_can_shrink(): may a cpuset drop CPUs, given what its
 * root domain has admitted? Trial masks of the first 1..n active CPUs.
 */
static void sched_dl_bw_cpumask_can_shrink(struct kunit *test)
{
	struct sched_test_dl_ctx *ctx = test->priv;
	struct cpumask *trial = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	struct cpumask *cur = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	int cpu, n = 0;

	KUNIT_ASSERT_NOT_NULL(test, trial);
	KUNIT_ASSERT_NOT_NULL(test, cur);
	if (ctx->d.cpus < 2)
		kunit_skip(test, "needs a root domain of 2 CPUs or more (has %d)",
			   ctx->d.cpus);
	rcu_read_lock_sched();
	cpumask_copy(cur, cpu_rq(ctx->cpu)->rd->span);
	rcu_read_unlock_sched();
	for_each_cpu_and(cpu, cur, cpu_active_mask) {
		/* n CPUs of full capacity take n times 95%. */
		u64 fits = ST_BW_DEFAULT * ++n;

		cpumask_set_cpu(cpu, trial);
		sched_test_dl_preset_total(test, ctx, fits);
		KUNIT_EXPECT_EQ_MSG(test, dl_cpuset_cpumask_can_shrink(cur, trial), 1,
				    "%d CPUs, total at their capacity", n);
		sched_test_dl_preset_total(test, ctx, fits + 1);
		KUNIT_EXPECT_EQ_MSG(test, dl_cpuset_cpumask_can_shrink(cur, trial), 0,
				    "%d CPUs, total one unit over", n);
		/* Two presets per CPU: give them back as we go. */
		sched_test_dl_unhold(ctx);
	}
	KUNIT_EXPECT_EQ(test, n, ctx->d.cpus);
	sched_test_dl_expect(test, &ctx->want, "after the shrink checks");
}

/*
 * A CPU that goes offline leaves its root domain: the domain counts its
 * active CPUs only (dl_bw_cpus(), dl_bw_capacity()), and admits 95% of
 * each of those. CPU0 may not go offline on x86: the case sees the domain
 * from CPU0 and takes the last online CPU offline. (It once saw it from
 * the test kthread's CPU, which could not go either: with 2 CPUs it
 * skipped whenever the kthread had been created on CPU1. The kthread holds
 * no bandwidth here, and a CPU may go offline under a task that sleeps.)
 */
static void sched_dl_bw_cpu_offline(struct kunit *test)
{
#ifdef CONFIG_HOTPLUG_CPU
	struct sched_test_dl_ctx *ctx = test->priv;
	struct sched_test_dl_domain all;
	struct rq_flags rf;
	struct dl_bw *dl_b;
	int cpu, victim = -1, first_inactive = -1, cpus, ret;
	unsigned long cap;
	u64 def_total;

	KUNIT_ASSERT_EQ(test, ctx->p_bw, 0ULL);
	KUNIT_ASSERT_EQ(test, ctx->nr_held, 0);
	KUNIT_ASSERT_TRUE(test, cpu_online(0));
	ctx->cpu = 0;
	ctx->d = sched_test_dl_model_domain(0);
	all = ctx->d;
	if (all.cpus < 2)
		kunit_skip(test, "needs a root domain of 2 CPUs or more (has %d)", all.cpus);
	for_each_online_cpu(cpu)
		victim = cpu;
#ifdef ST_FAIR_SERVER
	/*
	 * 6.12.118 re-attaches every fair server at each rebuild of the root
	 * domains (rq_attach_root()), taking a share of extra_bw each time
	 * that nothing gives back, and the default root domain keeps what
	 * the servers of the CPUs that passed through it held: the servers
	 * are off while a CPU is offline here, as an admin can turn them off
	 * (runtime 0), so that the case sees the admission rules alone.
	 */
	ctx->servers_off = true;
	KUNIT_ASSERT_EQ(test, sched_test_dl_servers_set(ctx, 0, 0), 0);
#endif
	/* What the default root domain, which the victim joins, holds already. */
	dl_b = sched_test_dl_lock(ctx->cpu, &rf);
	def_total = def_root_domain.dl_bw.total_bw;
	sched_test_dl_unlock(ctx->cpu, dl_b, &rf);
	ret = remove_cpu(victim);
	if (ret)
		kunit_skip(test, "CPU%d cannot go offline: %d", victim, ret);
	ctx->cpu_offline = true;
	ctx->offline_cpu = victim;
	/*
	 * The model: the domain without @victim, which joins the CPUs that
	 * are not active in the default root domain (named by its first).
	 */
	ctx->d = sched_test_dl_model_domain(ctx->cpu);
	KUNIT_EXPECT_EQ(test, ctx->d.cpus, all.cpus - 1);
	for_each_possible_cpu(cpu) {
		if (cpu_active(cpu))
			continue;
		if (first_inactive < 0)
			first_inactive = cpu;
		ctx->want.cpu[cpu].domain = first_inactive;
		ctx->want.cpu[cpu].total_bw = def_total;
	}

	dl_b = sched_test_dl_lock(ctx->cpu, &rf);
	cpus = dl_bw_cpus(ctx->cpu);
	cap = dl_bw_capacity(ctx->cpu);
	sched_test_dl_unlock(ctx->cpu, dl_b, &rf);
	KUNIT_EXPECT_EQ(test, cpus, all.cpus - 1);
	KUNIT_EXPECT_EQ(test, (u64)cap, (u64)(all.cpus - 1) * SCHED_CAPACITY_SCALE);
	/* The offline CPU's own domain has no active CPU: nothing to admit. */
	dl_b = sched_test_dl_lock(victim, &rf);
	cpus = dl_bw_cpus(victim);
	cap = dl_bw_capacity(victim);
	sched_test_dl_unlock(victim, dl_b, &rf);
	KUNIT_EXPECT_EQ(test, cpus, 0);
	KUNIT_EXPECT_EQ(test, cap, 0UL);
	sched_test_dl_expect(test, &ctx->want, "with a CPU offline");

	sched_test_dl_preset_total(test, ctx, ST_BW_DEFAULT * (all.cpus - 1));
	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), 0);
	sched_test_dl_preset_total(test, ctx, ST_BW_DEFAULT * (all.cpus - 1) + 1);
	KUNIT_EXPECT_EQ(test, dl_bw_check_overflow(ctx->cpu), -EBUSY);
	sched_test_dl_expect(test, &ctx->want, "after the checks");
	/* Given back in the domain it was taken from, before it is rebuilt. */
	sched_test_dl_unhold(ctx);

	KUNIT_EXPECT_EQ(test, add_cpu(victim), 0);
	ctx->cpu_offline = false;
	ctx->d = all;
	for_each_possible_cpu(cpu) {
		ctx->want.cpu[cpu].domain = ctx->start.cpu[cpu].domain;
		ctx->want.cpu[cpu].total_bw = ctx->want.cpu[ctx->cpu].total_bw;
	}
	KUNIT_EXPECT_EQ(test, sched_test_dl_model_domain(ctx->cpu).cpus, all.cpus);
	sched_test_dl_expect(test, &ctx->want, "with the CPU back");
#ifdef ST_FAIR_SERVER
	KUNIT_EXPECT_EQ(test, sched_test_dl_servers_set(ctx, ST_SERVER_RUNTIME, ST_BW_SERVER), 0);
	ctx->servers_off = false;
	sched_test_dl_expect(test, &ctx->want, "with the fair servers back");
#endif
#else
	kunit_skip(test, "needs CONFIG_HOTPLUG_CPU");
#endif
}

#define DLB_SMP_CASE(fn) KUNIT_CASE(fn)
#else
/*
 * Same case names on UP, each skipped with the reason: written out rather
 * than KUNIT_CASE() because the functions do not exist without CONFIG_SMP,
 * and a skipped parameter of a parameterised case would print as passed.
 */
static void dlb_skip_up(struct kunit *test)
{
	kunit_skip(test, "dl_bw_*() are SMP-only: CONFIG_SMP is not set");
}

#define DLB_SMP_CASE(fn) { .run_case = dlb_skip_up, .name = #fn }
#endif /* CONFIG_SMP */

/*
 * A new global limit below what a domain has admitted is refused with
 * -EBUSY (sched_dl_global_validate()), and the sysctl keeps its value;
 * at exactly what is admitted it is accepted. The handler checks the
 * deadline bandwidth before the RT walk, which would refuse the accepted
 * value (-EINVAL) while the root task group keeps 95%: with
 * CONFIG_RT_GROUP_SCHED the root group is lowered first, and raised again
 * after (the exit does it too, should the case stop half-way).
 */
static void sched_dl_bw_global_limit(struct kunit *test)
{
	struct sched_test_dl_ctx *ctx = test->priv;
	u64 admitted = ST_BW_40_100 * ctx->d.cpus;

#ifdef CONFIG_RT_GROUP_SCHED
	ctx->root_rt = true;
	KUNIT_ASSERT_EQ(test, tg_set_rt_bandwidth(&root_task_group,
						  (u64)ST_RT_PERIOD_US * ST_US,
						  400000ULL * ST_US), 0);
#endif
	sched_test_dl_preset_total(test, ctx, admitted + 1);
	KUNIT_EXPECT_EQ(test, sched_test_dl_rt_runtime(test, ctx, 400000, ST_BW_40_100),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, READ_ONCE(sysctl_sched_rt_runtime), ST_RT_RUNTIME_US);
	sched_test_dl_expect(test, &ctx->want, "after the refused limit");

	sched_test_dl_preset_total(test, ctx, admitted);
	KUNIT_EXPECT_EQ(test, sched_test_dl_rt_runtime(test, ctx, 400000, ST_BW_40_100),
			0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(sysctl_sched_rt_runtime), 400000);
	sched_test_dl_expect(test, &ctx->want, "after the accepted limit");

	/*
	 * Put back in the kernel's order: the test's bandwidth first (the
	 * handler resets extra_bw as if nothing were admitted), the global
	 * limit, then the root group, which may not exceed it.
	 */
	sched_test_dl_unhold(ctx);
	KUNIT_EXPECT_EQ(test, sched_test_dl_rt_runtime(test, ctx, ST_RT_RUNTIME_US,
						       ST_BW_DEFAULT), 0);
#ifdef CONFIG_RT_GROUP_SCHED
	KUNIT_EXPECT_EQ(test, tg_set_rt_bandwidth(&root_task_group,
						  (u64)ST_RT_PERIOD_US * ST_US,
						  (u64)ST_RT_RUNTIME_US * ST_US), 0);
#endif
}

#ifdef ST_FAIR_SERVER
/*
 * 6.12's fair server serves: with an RT task spinning on the test's CPU,
 * the fair tasks there (this thread among them) still run, once the
 * server's deferral ends (dl_defer: its zero-laxity time, the period less
 * the runtime left). The servers are given 900 ms every second (admitted
 * like any deadline bandwidth; the model follows), so that this thread is
 * back after about 100 ms: well before RT throttling (the root group's
 * 950 ms a second) or the end of the spin (DLB_SPIN) would let it run,
 * and not at once, which would mean the RT task never took its CPU.
 */
#define DLB_SERVER_RUNTIME	(900 * ST_MS)
#define DLB_BW_900_1000		943718ULL	/* 0.9 * 2^20 = 943718.4 */
#define DLB_SPIN		(3ULL * NSEC_PER_SEC)
#define DLB_DEFER_MS		50	/* half the deferral: it did wait */
#define DLB_SERVED_MS		500

struct dlb_spin {
	bool started;
	bool done;
};

/*
 * Spin until told or for DLB_SPIN at most, then wait to be stopped. Like an
 * RT task in user space, preemptible (cond_resched(): the cells' kernels
 * are PREEMPT_NONE), but it never sleeps.
 */
static int dlb_spin_fn(void *data)
{
	struct dlb_spin *s = data;
	ktime_t until = ktime_add_ns(ktime_get(), DLB_SPIN);

	WRITE_ONCE(s->started, true);
	while (!READ_ONCE(s->done) && ktime_before(ktime_get(), until))
		cond_resched();
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void sched_dl_bw_fair_server(struct kunit *test)
{
	struct sched_test_dl_ctx *ctx = test->priv;
	struct dlb_spin s = {};
	struct task_struct *spinner;
	ktime_t start, until;
	s64 waited;

	ctx->servers_off = true;	/* the exit gives the default back */
	KUNIT_ASSERT_EQ(test, sched_test_dl_servers_set(ctx, DLB_SERVER_RUNTIME,
							DLB_BW_900_1000), 0);
	sched_test_dl_expect(test, &ctx->want, "with the servers at 900 ms");

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(ctx->cpu)), 0);
	spinner = kthread_create(dlb_spin_fn, &s, "dlb_spin");
	if (IS_ERR(spinner)) {
		KUNIT_FAIL(test, "kthread_create: %ld", PTR_ERR(spinner));
		goto out;
	}
	get_task_struct(spinner);
	kthread_bind(spinner, ctx->cpu);
	sched_set_fifo(spinner);
	start = ktime_get();
	until = ktime_add_ns(start, DLB_SPIN);
	wake_up_process(spinner);
	/* Let it preempt this thread (a scheduling point on any preemption model). */
	while (!READ_ONCE(s.started) && ktime_before(ktime_get(), until))
		cond_resched();
	waited = ktime_ms_delta(ktime_get(), start);
	KUNIT_EXPECT_EQ(test, raw_smp_processor_id(), ctx->cpu);
	KUNIT_EXPECT_EQ(test, task_cpu(spinner), ctx->cpu);
	WRITE_ONCE(s.done, true);
	kthread_stop(spinner);
	put_task_struct(spinner);
	KUNIT_EXPECT_TRUE_MSG(test, READ_ONCE(s.started), "the RT task never ran");
	KUNIT_EXPECT_GE_MSG(test, waited, DLB_DEFER_MS,
			    "this fair thread waited %lld ms beside the RT task", waited);
	KUNIT_EXPECT_LT_MSG(test, waited, DLB_SERVED_MS,
			    "this fair thread waited %lld ms beside the RT task", waited);
out:
	KUNIT_EXPECT_EQ(test, set_cpus_allowed_ptr(current, cpu_possible_mask), 0);
	KUNIT_EXPECT_EQ(test, sched_test_dl_servers_set(ctx, ST_SERVER_RUNTIME, ST_BW_SERVER), 0);
	ctx->servers_off = false;
	sched_test_dl_expect(test, &ctx->want, "with the servers back");
}
#endif

static struct kunit_case dlb_cases[] = {
	DLB_SMP_CASE(sched_dl_bw_check_overflow),
	DLB_SMP_CASE(sched_dl_bw_alloc),
	DLB_SMP_CASE(sched_dl_bw_alloc_free),
	DLB_SMP_CASE(sched_dl_bw_admission_off),
	DLB_SMP_CASE(sched_dl_bw_cpumask_can_shrink),
	DLB_SMP_CASE(sched_dl_bw_cpu_offline),
	KUNIT_CASE(sched_dl_bw_global_limit),
#ifdef ST_FAIR_SERVER
	KUNIT_CASE(sched_dl_bw_fair_server),
#endif
	/* Must stay last. */
	{ .run_case = sched_test_dl_suite_state_kept,
	  .name = "sched_dl_bw_state_kept" },
	{}
};

static struct kunit_suite dlb_suite = {
	.name = "sched_dl_bw",
	.suite_init = sched_test_dl_suite_init,
	.suite_exit = sched_test_dl_suite_exit,
	.init = dlb_init,
	.exit = dlb_exit,
	.test_cases = dlb_cases,
};

kunit_test_suite(dlb_suite);
