// SPDX-License-Identifier: GPL-2.0-only
/*
 * Planted bugs that a debug cell must report (sched_tinify/mutants.py):
 * never part of the series or of kunit/. The self-check appends an
 * #include of this file to kernel/sched/build_policy.c in the build tree,
 * builds the debug cell, boots it, expects one report of each kind in the
 * console, and puts the tree back. Each bug is one the suites could make:
 * a shift past the width of its type (UBSAN), a timer set up again while
 * it is pending (debug objects), a read of freed memory (KASAN) and
 * allocations nobody frees (kmemleak, from the test's kthread). The timer
 * is stopped and freed afterwards, so that nothing fires on freed memory.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/timer.h>

struct selfcheck_timer {
	struct timer_list timer;
};

static void selfcheck_timer_fn(struct timer_list *t)
{
}

static void debug_selfcheck_planted(struct kunit *test)
{
	struct selfcheck_timer *st;
	volatile int shift = 40;
	volatile int one = 1;
	char *p;
	int i;

	/* UBSAN: shift-out-of-bounds. */
	kunit_info(test, "planted: 1 << 40 in an int: %d\n", one << shift);

	/* ODEBUG: init active (timer_list). */
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st);
	timer_setup(&st->timer, selfcheck_timer_fn, 0);
	mod_timer(&st->timer, jiffies + 1000 * HZ);
	timer_setup(&st->timer, selfcheck_timer_fn, 0);
	del_timer_sync(&st->timer);
	kfree(st);

	/* KASAN: use-after-free. */
	p = kmalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	kunit_info(test, "planted: a byte of freed memory: %d\n", READ_ONCE(p[8]));

	/* kmemleak: objects nobody points to, allocated by this kthread. */
	for (i = 0; i < 4; i++) {
		p = kmalloc(128, GFP_KERNEL);
		OPTIMIZER_HIDE_VAR(p);
	}
}

static struct kunit_case debug_selfcheck_cases[] = {
	KUNIT_CASE(debug_selfcheck_planted),
	{}
};

static struct kunit_suite debug_selfcheck_suite = {
	.name = "sched_debug_selfcheck",
	.test_cases = debug_selfcheck_cases,
};

kunit_test_suite(debug_selfcheck_suite);
