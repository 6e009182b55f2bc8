// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for __checkparam_dl(), the check of the SCHED_DEADLINE
 * parameters that sched_setattr() passes in (sched_runtime, sched_deadline,
 * sched_period, sched_flags), per Documentation/scheduler/sched-deadline.rst:
 *
 *  - SCHED_FLAG_SUGOV: no parameter is looked at;
 *  - deadline != 0;
 *  - runtime >= 1 << DL_SCALE (the bits the bandwidth code truncates);
 *  - bit 63 clear in deadline and period;
 *  - period == 0 means period = deadline;
 *  - runtime <= deadline <= period;
 *  - sysctl_sched_dl_period_min <= period <= sysctl_sched_dl_period_max
 *    (in microseconds; 100 us and 2^22 us by default).
 *
 * Note that the bit 63 rule cannot change the result on its own: a
 * deadline or period with bit 63 set is always above the largest possible
 * period limit (UINT_MAX microseconds), so the period range rule rejects it
 * too. The cases keep it as documented behaviour.
 *
 * The suite is built into the build_policy.c translation unit, after
 * deadline.c, so it can reach the static period limits; a case changes
 * them through their sysctl handlers, its exit puts them back the same
 * way, and the last case checks that they are as the suite found them.
 *
 * The file stands alone (it does not use sched_test_util.h): it is the
 * one suite meant to be posted upstream (see patches/kunit/).
 */
#include <kunit/test.h>
#include <linux/math64.h>
#include <linux/prandom.h>

#define DLCP_MIN_US	100U
#define DLCP_MAX_US	((unsigned int)BIT(22))
#define DLCP_MIN_NS	((u64)DLCP_MIN_US * NSEC_PER_USEC)
#define DLCP_MAX_NS	((u64)DLCP_MAX_US * NSEC_PER_USEC)
#define DLCP_RT_MIN	BIT_ULL(DL_SCALE)
#define DLCP_BIT63	BIT_ULL(63)
#define DLCP_MS		NSEC_PER_MSEC

/* Period limits found at suite start, restored after every case. */
static unsigned int dlcp_saved_min_us;
static unsigned int dlcp_saved_max_us;

/*
 * Write one of the period limits through its sysctl handler, as /proc
 * would: the table is walked by its size, whether or not it ends with an
 * empty entry.
 */
static int dlcp_write_limit(const char *name, unsigned int us)
{
	char buf[16];
	size_t len = scnprintf(buf, sizeof(buf), "%u", us);
	loff_t pos = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(sched_dl_sysctls) && sched_dl_sysctls[i].procname; i++)
		if (!strcmp(sched_dl_sysctls[i].procname, name))
			return sched_dl_sysctls[i].proc_handler(&sched_dl_sysctls[i], 1, buf,
								&len, &pos);
	return -ENOENT;
}

/*
 * Set both limits. Each handler keeps min <= max, so the order matters:
 * the new minimum first unless it is above the present maximum.
 */
static void dlcp_set_limits(struct kunit *test, unsigned int min_us,
			    unsigned int max_us)
{
	if (min_us <= READ_ONCE(sysctl_sched_dl_period_max)) {
		KUNIT_EXPECT_EQ(test, dlcp_write_limit("sched_deadline_period_min_us",
						       min_us), 0);
		KUNIT_EXPECT_EQ(test, dlcp_write_limit("sched_deadline_period_max_us",
						       max_us), 0);
	} else {
		KUNIT_EXPECT_EQ(test, dlcp_write_limit("sched_deadline_period_max_us",
						       max_us), 0);
		KUNIT_EXPECT_EQ(test, dlcp_write_limit("sched_deadline_period_min_us",
						       min_us), 0);
	}
	KUNIT_EXPECT_EQ(test, READ_ONCE(sysctl_sched_dl_period_min), min_us);
	KUNIT_EXPECT_EQ(test, READ_ONCE(sysctl_sched_dl_period_max), max_us);
}

static bool dlcp_check(u64 flags, u64 runtime, u64 deadline, u64 period)
{
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_DEADLINE,
		.sched_flags	= flags,
		.sched_runtime	= runtime,
		.sched_deadline	= deadline,
		.sched_period	= period,
	};

	return __checkparam_dl(&attr);
}

struct dlcp_case {
	const char *desc;
	u64 flags;
	u64 runtime;
	u64 deadline;
	u64 period;
	bool valid;
};

static const struct dlcp_case dlcp_cases[] = {
	/* SCHED_FLAG_SUGOV: the parameters are not looked at. */
	{ "sugov, all parameters 0", SCHED_FLAG_SUGOV, 0, 0, 0, true },
	{ "sugov, runtime above deadline", SCHED_FLAG_SUGOV,
	  10 * DLCP_MS, DLCP_MS, 0, true },
	{ "sugov, bit 63 in period", SCHED_FLAG_SUGOV,
	  DLCP_MS, 10 * DLCP_MS, DLCP_BIT63, true },
	{ "sugov among other flags, period above max",
	  SCHED_FLAG_SUGOV | SCHED_FLAG_RECLAIM,
	  DLCP_MS, DLCP_MS, DLCP_MAX_NS + 1, true },
	{ "other flags do not bypass, deadline 0", SCHED_FLAG_RECLAIM,
	  DLCP_MS, 0, 10 * DLCP_MS, false },

	/* deadline != 0 */
	{ "deadline 0", 0, DLCP_MS, 0, 10 * DLCP_MS, false },
	{ "deadline 0, period 0", 0, DLCP_RT_MIN, 0, 0, false },
	{ "deadline 0, runtime 0, period 0", 0, 0, 0, 0, false },

	/* runtime >= 1 << DL_SCALE */
	{ "runtime 0", 0, 0, DLCP_MS, 10 * DLCP_MS, false },
	{ "runtime 1023, one below 1 << DL_SCALE", 0,
	  DLCP_RT_MIN - 1, DLCP_MS, 10 * DLCP_MS, false },
	{ "runtime 1024, 1 << DL_SCALE", 0,
	  DLCP_RT_MIN, DLCP_MS, 10 * DLCP_MS, true },
	{ "runtime 1025, one above 1 << DL_SCALE", 0,
	  DLCP_RT_MIN + 1, DLCP_MS, 10 * DLCP_MS, true },
	{ "runtime 1023 with runtime == deadline == period == min", 0,
	  DLCP_RT_MIN - 1, DLCP_MIN_NS, DLCP_MIN_NS, false },

	/* bit 63 clear in deadline and period */
	{ "bit 63 in deadline", 0, DLCP_MS, DLCP_BIT63 | DLCP_MS,
	  10 * DLCP_MS, false },
	{ "bit 63 in deadline, period 0", 0, DLCP_MS,
	  DLCP_BIT63 | DLCP_MS, 0, false },
	{ "bit 63 in period", 0, DLCP_MS, 10 * DLCP_MS,
	  DLCP_BIT63 | (10 * DLCP_MS), false },
	{ "all ones in period", 0, DLCP_MS, 10 * DLCP_MS, U64_MAX, false },
	{ "bit 62 in period, above max", 0, DLCP_MS, 10 * DLCP_MS,
	  1ULL << 62, false },

	/* runtime <= deadline */
	{ "runtime == deadline == period", 0,
	  10 * DLCP_MS, 10 * DLCP_MS, 10 * DLCP_MS, true },
	{ "runtime == deadline, below period", 0,
	  5 * DLCP_MS, 5 * DLCP_MS, 10 * DLCP_MS, true },
	{ "runtime one above deadline", 0,
	  5 * DLCP_MS + 1, 5 * DLCP_MS, 10 * DLCP_MS, false },
	{ "runtime one below deadline", 0,
	  5 * DLCP_MS - 1, 5 * DLCP_MS, 10 * DLCP_MS, true },

	/* deadline <= period */
	{ "deadline == period", 0, DLCP_MS, 10 * DLCP_MS, 10 * DLCP_MS, true },
	{ "deadline one above period", 0,
	  DLCP_MS, 10 * DLCP_MS + 1, 10 * DLCP_MS, false },
	{ "deadline one below period", 0,
	  DLCP_MS, 10 * DLCP_MS - 1, 10 * DLCP_MS, true },

	/* period == 0 means period = deadline */
	{ "period 0 takes the deadline", 0, DLCP_MS, 10 * DLCP_MS, 0, true },
	{ "period 0, runtime == deadline", 0,
	  10 * DLCP_MS, 10 * DLCP_MS, 0, true },
	{ "period 0, runtime one above deadline", 0,
	  10 * DLCP_MS + 1, 10 * DLCP_MS, 0, false },
	{ "period 0, deadline one below min period", 0,
	  DLCP_RT_MIN, DLCP_MIN_NS - 1, 0, false },
	{ "period 0, deadline at min period", 0,
	  DLCP_RT_MIN, DLCP_MIN_NS, 0, true },
	{ "period 0, deadline at max period", 0,
	  DLCP_MS, DLCP_MAX_NS, 0, true },
	{ "period 0, deadline one above max period", 0,
	  DLCP_MS, DLCP_MAX_NS + 1, 0, false },

	/* sysctl_sched_dl_period_min <= period <= sysctl_sched_dl_period_max */
	{ "period one below min (100 us)", 0,
	  DLCP_RT_MIN, 50 * NSEC_PER_USEC, DLCP_MIN_NS - 1, false },
	{ "period at min (100 us)", 0,
	  DLCP_RT_MIN, 50 * NSEC_PER_USEC, DLCP_MIN_NS, true },
	{ "period one above min (100 us)", 0,
	  DLCP_RT_MIN, 50 * NSEC_PER_USEC, DLCP_MIN_NS + 1, true },
	{ "period one below max (2^22 us)", 0,
	  DLCP_MS, 10 * DLCP_MS, DLCP_MAX_NS - 1, true },
	{ "period at max (2^22 us)", 0,
	  DLCP_MS, 10 * DLCP_MS, DLCP_MAX_NS, true },
	{ "period one above max (2^22 us)", 0,
	  DLCP_MS, 10 * DLCP_MS, DLCP_MAX_NS + 1, false },
};

static void dlcp_case_desc(const struct dlcp_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dlcp_rules, dlcp_cases, dlcp_case_desc);

static void sched_dl_checkparam_rules(struct kunit *test)
{
	const struct dlcp_case *c = test->param_value;

	/* The table's boundaries are those of the default limits. */
	dlcp_set_limits(test, DLCP_MIN_US, DLCP_MAX_US);

	KUNIT_EXPECT_EQ_MSG(test, dlcp_check(c->flags, c->runtime, c->deadline,
					     c->period), c->valid,
			    "flags=%#llx runtime=%llu deadline=%llu period=%llu",
			    c->flags, c->runtime, c->deadline, c->period);
}

/* The period limits are read at every call: change them and look again. */
static void sched_dl_checkparam_changed_limits(struct kunit *test)
{
	const u64 us = NSEC_PER_USEC;

	dlcp_set_limits(test, 1000, 2000);
	KUNIT_EXPECT_FALSE(test, dlcp_check(0, DLCP_RT_MIN, DLCP_MIN_NS, DLCP_MIN_NS));
	KUNIT_EXPECT_FALSE(test, dlcp_check(0, DLCP_RT_MIN, 500 * us, 1000 * us - 1));
	KUNIT_EXPECT_TRUE(test, dlcp_check(0, DLCP_RT_MIN, 500 * us, 1000 * us));
	KUNIT_EXPECT_TRUE(test, dlcp_check(0, DLCP_RT_MIN, 500 * us, 2000 * us));
	KUNIT_EXPECT_FALSE(test, dlcp_check(0, DLCP_RT_MIN, 500 * us, 2000 * us + 1));
	KUNIT_EXPECT_TRUE(test, dlcp_check(0, DLCP_RT_MIN, 2000 * us, 0));
	KUNIT_EXPECT_FALSE(test, dlcp_check(0, DLCP_RT_MIN, 2000 * us + 1, 0));
	KUNIT_EXPECT_FALSE(test, dlcp_check(0, DLCP_MS, 10 * DLCP_MS, 10 * DLCP_MS));

	/* min == max: exactly one period is accepted. */
	dlcp_set_limits(test, 500, 500);
	KUNIT_EXPECT_FALSE(test, dlcp_check(0, DLCP_RT_MIN, 100 * us, 500 * us - 1));
	KUNIT_EXPECT_TRUE(test, dlcp_check(0, DLCP_RT_MIN, 100 * us, 500 * us));
	KUNIT_EXPECT_FALSE(test, dlcp_check(0, DLCP_RT_MIN, 100 * us, 500 * us + 1));

	/* The widest limits: the sysctls are unsigned int microseconds. */
	dlcp_set_limits(test, 2, UINT_MAX);
	KUNIT_EXPECT_TRUE(test, dlcp_check(0, DLCP_RT_MIN, DLCP_RT_MIN,
					   (u64)UINT_MAX * us));
	KUNIT_EXPECT_FALSE(test, dlcp_check(0, DLCP_RT_MIN, DLCP_RT_MIN,
					    (u64)UINT_MAX * us + 1));
	KUNIT_EXPECT_TRUE(test, dlcp_check(0, DLCP_RT_MIN, DLCP_RT_MIN, 2 * us));
	KUNIT_EXPECT_FALSE(test, dlcp_check(0, DLCP_RT_MIN, DLCP_RT_MIN, 2 * us - 1));
}

/*
 * An independent model of the documented rules: the first rule a set of
 * parameters breaks, or DLCP_OK. Written as a list of conditions rather
 * than a copy of the kernel's code.
 */
enum dlcp_verdict {
	DLCP_OK,
	DLCP_DEADLINE_ZERO,
	DLCP_RUNTIME_SMALL,
	DLCP_BIT63_SET,
	DLCP_ORDER,
	DLCP_PERIOD_RANGE,
	DLCP_NR_VERDICTS,
};

static enum dlcp_verdict dlcp_model(u64 flags, u64 runtime, u64 deadline,
				    u64 period, u64 min_ns, u64 max_ns)
{
	u64 effective_period = period ?: deadline;

	if (flags & SCHED_FLAG_SUGOV)
		return DLCP_OK;
	if (!deadline)
		return DLCP_DEADLINE_ZERO;
	if (runtime < 1024)
		return DLCP_RUNTIME_SMALL;
	if ((deadline | period) >> 63)
		return DLCP_BIT63_SET;
	if (!(runtime <= deadline && deadline <= effective_period))
		return DLCP_ORDER;
	if (!(min_ns <= effective_period && effective_period <= max_ns))
		return DLCP_PERIOD_RANGE;
	return DLCP_OK;
}

/* A value near a boundary of the rules, or a random one. */
static u64 dlcp_pick(struct rnd_state *rnd, u64 min_ns, u64 max_ns)
{
	const u64 edges[] = {
		0, DLCP_RT_MIN, min_ns, max_ns, DLCP_MS, 10 * DLCP_MS,
		DLCP_BIT63, U64_MAX,
	};
	u32 r = prandom_u32_state(rnd);
	u64 v = edges[(r >> 8) % ARRAY_SIZE(edges)];
	s64 delta = (s64)((r >> 16) % 5) - 2;
	u64 any = (u64)prandom_u32_state(rnd) << 32 | prandom_u32_state(rnd);
	u64 below;

	switch (r % 4) {
	case 0:
		return v;
	case 1:
		return v + delta;
	case 2:
		/* Up to twice the largest period. */
		div64_u64_rem(any, 2 * max_ns + 1, &below);
		return below;
	default:
		return any;
	}
}

/* Compare __checkparam_dl() with the model; count the verdicts seen. */
static void dlcp_sweep(struct kunit *test, u64 seed, unsigned int rounds,
		       unsigned int *seen)
{
	u64 min_ns = (u64)READ_ONCE(sysctl_sched_dl_period_min) * NSEC_PER_USEC;
	u64 max_ns = (u64)READ_ONCE(sysctl_sched_dl_period_max) * NSEC_PER_USEC;
	unsigned int i, mismatches = 0;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, seed);
	for (i = 0; i < rounds; i++) {
		u32 r = prandom_u32_state(&rnd);
		u64 flags = 0, runtime, deadline, period;
		enum dlcp_verdict want;
		bool got, valid;

		if (!(r % 32))
			flags |= SCHED_FLAG_SUGOV;
		if (!((r >> 5) % 8))
			flags |= SCHED_FLAG_RECLAIM | SCHED_FLAG_DL_OVERRUN;

		runtime = dlcp_pick(&rnd, min_ns, max_ns);
		/* Often tie the next value to the last, to hit the order rule. */
		deadline = (r >> 8) % 2 ? runtime + (s64)((r >> 9) % 5) - 2 :
					  dlcp_pick(&rnd, min_ns, max_ns);
		switch ((r >> 12) % 4) {
		case 0:
			period = 0;
			break;
		case 1:
			period = deadline + (s64)((r >> 14) % 5) - 2;
			break;
		default:
			period = dlcp_pick(&rnd, min_ns, max_ns);
			break;
		}

		want = dlcp_model(flags, runtime, deadline, period, min_ns, max_ns);
		valid = want == DLCP_OK;
		got = dlcp_check(flags, runtime, deadline, period);
		seen[want]++;
		if (got != valid && ++mismatches <= 5)
			KUNIT_FAIL(test,
				   "flags=%#llx runtime=%llu deadline=%llu period=%llu: got %d, model says %d (rule %d)",
				   flags, runtime, deadline, period, got,
				   valid, want);
	}
	KUNIT_EXPECT_EQ_MSG(test, mismatches, 0U, "of %u rounds", rounds);
}

static void sched_dl_checkparam_matches_model(struct kunit *test)
{
	unsigned int seen[DLCP_NR_VERDICTS] = { };
	int v;

	/* Default limits, then narrow ones: 20000 attributes in all. */
	dlcp_sweep(test, 0x5ced1d17ULL, 10000, seen);
	dlcp_set_limits(test, 500, 20000);
	dlcp_sweep(test, 0xdead11ceULL, 10000, seen);

	/* The sweep is only worth something if it reaches every rule. */
	for (v = 0; v < DLCP_NR_VERDICTS; v++)
		KUNIT_EXPECT_GE_MSG(test, seen[v], 100U,
				    "verdict %d reached only %u times", v, seen[v]);
}

/* Must stay the last case: the period limits are as the suite found them. */
static void sched_dl_checkparam_limits_restored(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, READ_ONCE(sysctl_sched_dl_period_min), dlcp_saved_min_us);
	KUNIT_EXPECT_EQ(test, READ_ONCE(sysctl_sched_dl_period_max), dlcp_saved_max_us);
}

static int dlcp_suite_init(struct kunit_suite *suite)
{
	dlcp_saved_min_us = READ_ONCE(sysctl_sched_dl_period_min);
	dlcp_saved_max_us = READ_ONCE(sysctl_sched_dl_period_max);
	return 0;
}

static void dlcp_exit(struct kunit *test)
{
	dlcp_set_limits(test, dlcp_saved_min_us, dlcp_saved_max_us);
}

static struct kunit_case dlcp_test_cases[] = {
	KUNIT_CASE_PARAM(sched_dl_checkparam_rules, dlcp_rules_gen_params),
	KUNIT_CASE(sched_dl_checkparam_changed_limits),
	KUNIT_CASE(sched_dl_checkparam_matches_model),
	KUNIT_CASE(sched_dl_checkparam_limits_restored),
	{}
};

static struct kunit_suite dlcp_test_suite = {
	.name = "sched_dl_checkparam",
	.suite_init = dlcp_suite_init,
	.exit = dlcp_exit,
	.test_cases = dlcp_test_cases,
};

kunit_test_suite(dlcp_test_suite);
