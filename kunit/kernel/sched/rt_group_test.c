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
 * goes from non-zero to 0. No case does that to a test group. The -EBUSY
 * rule ("do not take the runtime away from RT tasks") is checked on the
 * root group, whose css is the real root cgroup, and on a real child
 * cgroup: the cases that need one mount the cgroup2 file system inside
 * the kernel, enable the cpu controller, mkdir the child and move a test
 * kthread through cgroup.procs, as a user would from a shell.
 *
 * Every case restores the root group's bandwidth and the sysctls through
 * the kernel's own paths; the last case checks that the root group, the
 * default bandwidth, the sysctls and the deadline bandwidth they feed are
 * as the suite found them.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/namei.h>

#include "sched_test_util.h"

#define RTG_US		ST_US
#define RTG_PERIOD_US	((long)ST_RT_PERIOD_US)
#define RTG_MAX_GROUPS	8

/*
 * Per CPU: the root group's rt_rq, and the deadline state the sysctls feed
 * (where the kernel has the deadline class).
 */
struct rtg_cpu {
	u64 root_rq_runtime;
#ifdef CONFIG_SCHED_CLASS_DL
	u64 dl_bw;
	u64 dl_bw_ratio;
	u64 dl_extra_bw;
#endif
};

struct rtg_state {
	unsigned int period_us;
	int runtime_us;
#ifdef ST_DEF_RT_BANDWIDTH
	u64 def_runtime;
	s64 def_period;
#endif
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
#ifdef ST_DEF_RT_BANDWIDTH
	raw_spin_lock_irq(&def_rt_bandwidth.rt_runtime_lock);
	s->def_runtime = def_rt_bandwidth.rt_runtime;
	s->def_period = ktime_to_ns(def_rt_bandwidth.rt_period);
	raw_spin_unlock_irq(&def_rt_bandwidth.rt_runtime_lock);
#endif
	mutex_lock(&rt_constraints_mutex);
	s->root_runtime = root_task_group.rt_bandwidth.rt_runtime;
	s->root_period = ktime_to_ns(root_task_group.rt_bandwidth.rt_period);
	for_each_possible_cpu(cpu) {
		struct rt_rq *rt_rq = root_task_group.rt_rq[cpu];
		struct rtg_cpu *c = &s->cpu[cpu];
#ifdef CONFIG_SCHED_CLASS_DL
		struct rq *rq = cpu_rq(cpu);
		struct dl_bw *dl_b;
		struct rq_flags rf;
#endif

		raw_spin_lock_irq(&rt_rq->rt_runtime_lock);
		c->root_rq_runtime = rt_rq->rt_runtime;
		raw_spin_unlock_irq(&rt_rq->rt_runtime_lock);
#ifdef CONFIG_SCHED_CLASS_DL
		rq_lock_irqsave(rq, &rf);
		dl_b = dl_bw_of(cpu);
		raw_spin_lock(&dl_b->lock);
		c->dl_bw = dl_b->bw;
		c->dl_bw_ratio = rq->dl.bw_ratio;
		c->dl_extra_bw = rq->dl.extra_bw;
		raw_spin_unlock(&dl_b->lock);
		rq_unlock_irqrestore(rq, &rf);
#endif
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
#ifdef ST_DEF_RT_BANDWIDTH
	KUNIT_EXPECT_EQ(test, got->def_runtime, want->def_runtime);
	KUNIT_EXPECT_EQ(test, got->def_period, want->def_period);
#endif
	KUNIT_EXPECT_EQ(test, got->root_runtime, want->root_runtime);
	KUNIT_EXPECT_EQ(test, got->root_period, want->root_period);
	for_each_possible_cpu(cpu) {
		const struct rtg_cpu *g = &got->cpu[cpu], *w = &want->cpu[cpu];

		KUNIT_EXPECT_EQ_MSG(test, g->root_rq_runtime, w->root_rq_runtime,
				    "CPU%d", cpu);
#ifdef CONFIG_SCHED_CLASS_DL
		KUNIT_EXPECT_EQ_MSG(test, g->dl_bw, w->dl_bw, "CPU%d", cpu);
		KUNIT_EXPECT_EQ_MSG(test, g->dl_bw_ratio, w->dl_bw_ratio, "CPU%d", cpu);
		KUNIT_EXPECT_EQ_MSG(test, g->dl_extra_bw, w->dl_extra_bw, "CPU%d", cpu);
#endif
	}
}

struct rtg_cgroup;

struct rtg_ctx {
	struct rtg_state saved;
	struct task_group *groups[RTG_MAX_GROUPS];
	int nr_groups;
	struct task_struct *rt_kthread;
	struct rtg_cgroup *cg;
	/* What the exit must put back. */
	bool sysctl_changed;
	bool root_changed;
};

static int rtg_sysctl(struct kunit *test, const char *name, long value)
{
	struct rtg_ctx *ctx = test->priv;

	ctx->sysctl_changed = true;
#ifdef CONFIG_SCHED_CLASS_DL
	return sched_test_dl_rt_write(test, name, value);
#else
	return sched_test_rt_sysctl(test, name, value);
#endif
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

static int rtg_sleeper_fn(void *ready)
{
	set_current_state(TASK_INTERRUPTIBLE);
	complete(ready);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/*
 * A SCHED_NORMAL kthread that has run and sleeps until it is stopped: the
 * cgroup core refuses to move a kthread that has not run yet
 * (no_cgroup_migration, cleared by cgroup_kthread_ready() when it first
 * runs). Wait until it is in rtg_sleeper_fn(), and on SMP until it is off
 * its CPU (wait_task_inactive() is a no-op on UP).
 */
static struct task_struct *rtg_sleeper(struct kunit *test)
{
	struct rtg_ctx *ctx = test->priv;
	DECLARE_COMPLETION_ONSTACK(ready);
	struct task_struct *p = kthread_run(rtg_sleeper_fn, &ready, "rtg_sleeper");

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	ctx->rt_kthread = p;
	wait_for_completion(&ready);
	KUNIT_ASSERT_NE_MSG(test, wait_task_inactive(p, TASK_INTERRUPTIBLE), 0UL,
			    "the kthread did not go to sleep");
	KUNIT_ASSERT_FALSE(test, p->no_cgroup_migration);
	return p;
}

/*
 * A real child cgroup, made through the cgroup2 file system as a shell
 * would: mount, "+cpu" into the root's cgroup.subtree_control, mkdir,
 * PIDs into cgroup.procs. The mount is the kernel's own (vfs_kern_mount(),
 * attached to no path), so nothing outside the test sees it; the exit
 * undoes each step that was done, in reverse.
 */
#define RTG_CGROUP	"sched_rt_group_test"

struct rtg_cgroup {
	struct vfsmount *mnt;
	bool cpu_enabled;		/* by the test: disable again */
	bool made;			/* the child exists */
	struct task_struct *moved;	/* in the child: move back */
	struct task_group *tg;		/* the child's task group */
};

static int rtg_cg_write(struct rtg_cgroup *cg, const char *file, const char *buf)
{
	struct file *f = file_open_root_mnt(cg->mnt, file, O_WRONLY, 0);
	loff_t pos = 0;
	ssize_t ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = kernel_write(f, buf, strlen(buf), &pos);
	/* The test runs in a kthread: release the file now, not later. */
	__fput_sync(f);
	return ret < 0 ? ret : 0;
}

static int rtg_cg_move(struct rtg_cgroup *cg, const char *dir, struct task_struct *p)
{
	char file[64], pid[16];

	snprintf(file, sizeof(file), "%s%scgroup.procs", dir, *dir ? "/" : "");
	snprintf(pid, sizeof(pid), "%d", task_pid_nr(p));
	return rtg_cg_write(cg, file, pid);
}

/* Make or remove the child, as mkdir(2) and rmdir(2) do. */
static int rtg_cg_dir(struct rtg_cgroup *cg, bool make)
{
	struct dentry *root = cg->mnt->mnt_root, *d;
	struct inode *dir = d_inode(root);
	int ret;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	d = lookup_one_len(RTG_CGROUP, root, strlen(RTG_CGROUP));
	if (IS_ERR(d)) {
		ret = PTR_ERR(d);
	} else {
		ret = make ? vfs_mkdir(ST_MNT_IDMAP, dir, d, 0755) :
			     vfs_rmdir(ST_MNT_IDMAP, dir, d);
		dput(d);
	}
	inode_unlock(dir);
	return ret;
}

/* Is the cpu controller enabled for the root cgroup's children? */
static int rtg_cg_cpu_enabled(struct rtg_cgroup *cg)
{
	struct file *f = file_open_root_mnt(cg->mnt, "cgroup.subtree_control",
					    O_RDONLY, 0);
	char buf[256] = "", *s = buf, *word;
	loff_t pos = 0;
	ssize_t len;

	if (IS_ERR(f))
		return PTR_ERR(f);
	len = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	__fput_sync(f);
	if (len < 0)
		return len;
	while ((word = strsep(&s, "\n ")))
		if (!strcmp(word, "cpu"))
			return 1;
	return 0;
}

/*
 * Mount, enable the cpu controller, make the child and move @p into it
 * (a SCHED_NORMAL task: any group may take it). Skips, with the reason,
 * where the kernel cannot offer that (the cpu controller bound to a v1
 * hierarchy, for example).
 */
static struct task_group *rtg_child_cgroup(struct kunit *test, struct task_struct *p)
{
	struct rtg_ctx *ctx = test->priv;
	struct file_system_type *type;
	struct rtg_cgroup *cg;
	int ret;

	cg = kunit_kzalloc(test, sizeof(*cg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cg);
	ctx->cg = cg;
	type = get_fs_type("cgroup2");
	if (!type)
		kunit_skip(test, "no cgroup2 file system");
	cg->mnt = vfs_kern_mount(type, 0, "cgroup2", NULL);
	put_filesystem(type);
	if (IS_ERR(cg->mnt)) {
		ret = PTR_ERR(cg->mnt);
		cg->mnt = NULL;
		kunit_skip(test, "cannot mount cgroup2: %d", ret);
	}
	ret = rtg_cg_cpu_enabled(cg);
	KUNIT_ASSERT_GE_MSG(test, ret, 0, "reading cgroup.subtree_control");
	if (!ret) {
		ret = rtg_cg_write(cg, "cgroup.subtree_control", "+cpu");
		if (ret)
			kunit_skip(test, "cannot enable the cpu controller on cgroup2: %d",
				   ret);
		cg->cpu_enabled = true;
	}
	KUNIT_ASSERT_EQ(test, rtg_cg_dir(cg, true), 0);
	cg->made = true;
	KUNIT_ASSERT_EQ(test, rtg_cg_move(cg, RTG_CGROUP, p), 0);
	cg->moved = p;
	/* The group the move gave it: a new child of the root group, empty. */
	rcu_read_lock();
	cg->tg = task_group(p);
	rcu_read_unlock();
	KUNIT_ASSERT_PTR_NE(test, cg->tg, &root_task_group);
	KUNIT_EXPECT_PTR_EQ(test, cg->tg->parent, &root_task_group);
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(cg->tg), 0L);
	return cg->tg;
}

static bool rtg_tg_listed(struct task_group *tg)
{
	struct task_group *t;
	bool found = false;

	rcu_read_lock();
	list_for_each_entry_rcu(t, &task_groups, list)
		found |= t == tg;
	rcu_read_unlock();
	return found;
}

/*
 * Undo rtg_child_cgroup(). The child's runtime goes back to 0 first: the
 * group leaves the walk only when its css is released, after the rmdir,
 * and until then it counts in the root group's sum. Wait (up to 1 s) for
 * that, so that the next case finds the tree as the suite did.
 */
static void rtg_cgroup_undo(struct kunit *test)
{
	struct rtg_ctx *ctx = test->priv;
	struct rtg_cgroup *cg = ctx->cg;
	int i;

	if (cg->moved)
		KUNIT_EXPECT_EQ(test, rtg_cg_move(cg, "", cg->moved), 0);
	if (cg->tg)
		KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(cg->tg, 0), 0);
	if (cg->made)
		KUNIT_EXPECT_EQ(test, rtg_cg_dir(cg, false), 0);
	if (cg->cpu_enabled)
		KUNIT_EXPECT_EQ(test, rtg_cg_write(cg, "cgroup.subtree_control", "-cpu"), 0);
	mntput(cg->mnt);
	for (i = 0; cg->tg && rtg_tg_listed(cg->tg) && i < 50; i++)
		msleep(20);
	if (cg->tg)
		KUNIT_EXPECT_FALSE_MSG(test, rtg_tg_listed(cg->tg),
				       "the child's task group is still in the walk");
}

struct rtg_undo {
	struct kunit *test;
	struct completion done;
};

static int rtg_undo_fn(void *data)
{
	struct rtg_undo *u = data;

	rtg_cgroup_undo(u->test);
	complete(&u->done);
	return 0;
}

/*
 * After a failed assertion, KUnit runs .exit in the thread that runs the
 * suites (kernel_init, not a kthread), where a file cannot be released
 * synchronously (__fput_sync()): undo from a kthread then.
 */
static void rtg_cgroup_exit(struct kunit *test)
{
	struct rtg_ctx *ctx = test->priv;
	struct rtg_undo u = { .test = test };
	struct task_struct *t;

	if (!ctx->cg || !ctx->cg->mnt)
		return;
	if (current->flags & PF_KTHREAD) {
		rtg_cgroup_undo(test);
	} else {
		init_completion(&u.done);
		t = kthread_run(rtg_undo_fn, &u, "rtg_undo");
		if (IS_ERR(t))
			KUNIT_FAIL(test, "cannot undo the cgroup: %ld", PTR_ERR(t));
		else
			wait_for_completion(&u.done);
	}
	ctx->cg = NULL;
}

/* Does the system hold deadline bandwidth (or is there no memory to tell)? */
static bool rtg_dl_busy(struct kunit *test)
{
#ifdef CONFIG_SCHED_CLASS_DL
	struct sched_test_dl dl;

	if (sched_test_dl_alloc(test, &dl))
		return true;
	sched_test_dl_read(&dl);
	return sched_test_dl_busy_cpu(&dl) >= 0;
#else
	return false;
#endif
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

/*
 * A case that wrote the sysctls leaves them at the defaults rtg_init()
 * requires, and the write reset the extra_bw of the CPUs that
 * sched_dl_do_global() resets to the bandwidth they allow: where what was
 * admitted had taken a share of it (6.12's fair servers), that is the
 * state the case leaves, and the one the suite's last case expects. On
 * 6.12 SMP the servers' bandwidth is then given back (see
 * sched_test_dl_rt_write()), each taking its share again.
 */
static void rtg_model_global(struct rtg_state *s)
{
#ifdef CONFIG_SCHED_CLASS_DL
	int cpu, __maybe_unused other;

	for_each_possible_cpu(cpu)
		if (sched_test_dl_global_resets(cpu))
			s->cpu[cpu].dl_extra_bw = ST_BW_DEFAULT;
#ifdef ST_DL_RT_WRITE_CLEARS_TOTAL
	for_each_cpu(other, cpu_active_mask)
		for_each_cpu(cpu, cpu_active_mask)
			s->cpu[cpu].dl_extra_bw -=
				sched_test_dl_share(sched_test_dl_server_bw(cpu_rq(other)),
						    num_active_cpus());
#endif
#endif
}

static void rtg_cleanup(struct kunit *test)
{
	struct rtg_ctx *ctx = test->priv;
	const struct rtg_state *s;

	/* .exit runs even when .init failed. */
	if (!ctx)
		return;
	s = &ctx->saved;
	/* Out of the child cgroup before it goes, and before it stops. */
	rtg_cgroup_exit(test);
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
		rtg_model_global(&ctx->saved);
		rtg_model_global(&rtg_suite_start);
	}
	rtg_expect_state(test, s);
}

static void rtg_exit(struct kunit *test)
{
	rtg_cleanup(test);
	sched_test_global_kept(test);
}

static int rtg_suite_init(struct kunit_suite *suite)
{
	rtg_suite_start.cpu = kcalloc(nr_cpu_ids, sizeof(*rtg_suite_start.cpu),
				      GFP_KERNEL);
	if (!rtg_suite_start.cpu)
		return -ENOMEM;
	rtg_save(&rtg_suite_start);
	return sched_test_global_suite_init(suite);
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

/* Does @tg hold a task in an RT class? The model, by hand. */
static bool rtg_has_rt_task(struct task_group *tg)
{
	struct task_struct *g, *t;
	bool found = false;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (rt_task(t) && task_group(t) == tg) {
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
			rtg_has_rt_task(&root_task_group) ? -EBUSY : 0);
	rtg_rt_kthread(test);
	KUNIT_EXPECT_TRUE(test, rtg_has_rt_task(&root_task_group));
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
 * The same rule on a real child cgroup, whose only task is the test
 * kthread: its runtime cannot go to 0 while the kthread is SCHED_FIFO,
 * can while it is SCHED_NORMAL; and the cgroup core's attach asks
 * sched_rt_can_attach() (cpu_cgroup_can_attach()): no RT task into a
 * group without runtime.
 */
static void sched_rt_group_busy_child(struct kunit *test)
{
	struct task_struct *p = rtg_sleeper(test);
	struct task_group *tg = rtg_child_cgroup(test, p);
	struct rtg_cgroup *cg = ((struct rtg_ctx *)test->priv)->cg;

	KUNIT_ASSERT_EQ(test, sched_group_set_rt_runtime(tg, 10000), 0);
	sched_set_fifo(p);
	KUNIT_ASSERT_TRUE(test, rtg_has_rt_task(tg));
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(tg), 10000L);
	/* Less is fine: the rule is about none at all. */
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, 5000), 0);
	/* The same group without an RT task. */
	sched_set_normal(p, 0);
	KUNIT_ASSERT_FALSE(test, rtg_has_rt_task(tg));
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, 0), 0);
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(tg), 0L);
	/* Out to the root, made SCHED_FIFO there: not back in. */
	KUNIT_ASSERT_EQ(test, rtg_cg_move(cg, "", p), 0);
	cg->moved = NULL;
	sched_set_fifo(p);
	KUNIT_EXPECT_EQ(test, rtg_cg_move(cg, RTG_CGROUP, p), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, task_group(p), &root_task_group);
	/* With runtime, it may go in. */
	KUNIT_ASSERT_EQ(test, sched_group_set_rt_runtime(tg, 10000), 0);
	KUNIT_EXPECT_EQ(test, rtg_cg_move(cg, RTG_CGROUP, p), 0);
	cg->moved = p;
	KUNIT_EXPECT_PTR_EQ(test, task_group(p), tg);
}

/* With throttling off (-1), the child's RT task does not keep its runtime. */
static void sched_rt_group_busy_child_unlimited(struct kunit *test)
{
	struct task_struct *p = rtg_sleeper(test);
	struct task_group *tg = rtg_child_cgroup(test, p);

	KUNIT_ASSERT_EQ(test, sched_group_set_rt_runtime(tg, 10000), 0);
	sched_set_fifo(p);
	KUNIT_ASSERT_TRUE(test, rtg_has_rt_task(tg));
	KUNIT_ASSERT_EQ(test, rtg_sysctl(test, "sched_rt_runtime_us", -1), 0);
	KUNIT_EXPECT_EQ(test, sched_group_set_rt_runtime(tg, 0), 0);
	KUNIT_EXPECT_EQ(test, sched_group_rt_runtime(tg), 0L);
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
 * deadline refusal (-EBUSY), which comes before the RT walk: on 6.12 the
 * fair servers hold 5% of each CPU (ST_BW_SERVER), so a limit below
 * that is refused with -EBUSY there (ret_server).
 */
struct rtg_sysctl_case {
	const char *desc;
	const char *name;
	long value;
	int ret, ret_server;
};

static const struct rtg_sysctl_case rtg_sysctl_cases[] = {
	{ "runtime one above the period", "sched_rt_runtime_us", 1000001, -EINVAL, -EINVAL },
	{ "runtime equal to the period", "sched_rt_runtime_us", 1000000, 0, 0 },
	{ "runtime -1 turns throttling off", "sched_rt_runtime_us", -1, 0, 0 },
	{ "runtime -2 (bounds)", "sched_rt_runtime_us", -2, -EINVAL, -EINVAL },
	{ "runtime 0, below the root group's", "sched_rt_runtime_us", 0, -EINVAL, -EBUSY },
	{ "runtime 940000, below the root group's", "sched_rt_runtime_us",
	  940000, -EINVAL, -EINVAL },
	{ "period 0 (bounds)", "sched_rt_period_us", 0, -EINVAL, -EINVAL },
	{ "period one below the runtime", "sched_rt_period_us", 949999, -EINVAL, -EINVAL },
	{ "period equal to the runtime", "sched_rt_period_us", 950000, 0, 0 },
	{ "period 2 s, below the root group's ratio", "sched_rt_period_us",
	  2000000, -EINVAL, -EINVAL },
};

SCHED_TEST_PARAMS(rtg_sysctl, rtg_sysctl_cases, rtg_sysctl_case);

static void sched_rt_group_sysctl(struct kunit *test)
{
	const struct rtg_sysctl_case *c = test->param_value;
#ifdef ST_FAIR_SERVER
	int ret = c->ret_server;
#else
	int ret = c->ret;
#endif
	bool period = !strcmp(c->name, "sched_rt_period_us");
	long before = period ? ST_RT_PERIOD_US : ST_RT_RUNTIME_US;
	long __maybe_unused want_period = period && !ret ? c->value : ST_RT_PERIOD_US;
	long __maybe_unused want_runtime = !period && !ret ? c->value : ST_RT_RUNTIME_US;
	long now;

	KUNIT_EXPECT_EQ(test, rtg_sysctl(test, c->name, c->value), ret);
	now = period ? (long)READ_ONCE(sysctl_sched_rt_period) :
		       READ_ONCE(sysctl_sched_rt_runtime);
	KUNIT_EXPECT_EQ(test, now, ret ? before : c->value);
#ifdef ST_DEF_RT_BANDWIDTH
	/* The default bandwidth follows an accepted value, in nanoseconds. */
	KUNIT_EXPECT_EQ(test, def_rt_bandwidth.rt_runtime,
			want_runtime < 0 ? RUNTIME_INF : (u64)want_runtime * RTG_US);
	KUNIT_EXPECT_EQ(test, ktime_to_ns(def_rt_bandwidth.rt_period),
			(s64)want_period * RTG_US);
#endif
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
	KUNIT_CASE(sched_rt_group_busy_child),
	KUNIT_CASE(sched_rt_group_busy_child_unlimited),
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
