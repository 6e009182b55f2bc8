/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the scheduler KUnit suites share: hand-worked constants, one
 * description helper for parameter tables, the test kthread, the entry
 * points as user space reaches them (system calls, procfs and debugfs
 * files), writes through the sysctl handlers, and the deadline bandwidth
 * state with its model.
 *
 * The suites are #included into kernel/sched/build_policy.c (see
 * build_kunit.c), after rt.c and deadline.c, so everything here is static:
 * __maybe_unused because each suite can be configured on its own.
 *
 * How the deadline suites treat the kernel's accounting:
 *  - they own it: a case skips, saying why, when the system already has
 *    deadline tasks or reserved deadline bandwidth when it starts;
 *  - they never write an absolute value over it: a preset ("the domain is
 *    nearly full") is a delta through the kernel's own accounting calls,
 *    __dl_add() or __dl_sub() under the runqueue and dl_bw locks, as
 *    sched_dl_overflow() does it, and is given back by the opposite call
 *    of the same amount;
 *  - the expected state comes from the model below (the domain's CPUs and
 *    the hand-worked constants), never from the functions under test;
 *  - each case checks the model's state before anything is undone, and
 *    again, against the state it started from, once it is undone.
 */
#ifndef _SCHED_TEST_UTIL_H
#define _SCHED_TEST_UTIL_H

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/mman.h>
#include <linux/mount.h>
#include <linux/sched/mm.h>
#include <linux/syscalls.h>
#ifdef CONFIG_X86_64
#include <asm/syscall.h>
#endif

#define ST_US		NSEC_PER_USEC
#define ST_MS		NSEC_PER_MSEC

/*
 * What the kernels the suites run on do differently, in one place. The
 * hook of each kernel (kunit/hook-<version>.patch) says which it is:
 * 6.12's defines SCHED_TEST_KERNEL_6_12. There, kernel_thread() takes a name
 * (since 6.2), vfs_mkdir() and vfs_rmdir() a struct mnt_idmap (since
 * 6.3), and def_rt_bandwidth, the global RT bandwidth that followed the
 * sched_rt_* sysctls, is gone (5f6bd380c7bd, "sched/rt: Remove default
 * bandwidth control"). Three differences of behaviour:
 *  - ST_FAIR_SERVER: each runqueue's fair tasks are served by a deadline
 *    entity, rq->fair_server (since d741f297bcea), which holds deadline
 *    bandwidth (see the model below); ST_KERNEL_FAIR_SERVER: the kernel
 *    has it where it has the deadline class (the series leaves it out
 *    with the class, and its debugfs files, sched/fair_server/);
 *  - ST_DL_GLOBAL_RESETS_EVERY_CPU: a write of the RT sysctls resets the
 *    extra_bw of every CPU (440989c10f4e, "sched/deadline: Fix accounting
 *    after global limits change"), not only of the first of each domain;
 *  - ST_DL_RT_WRITE_CLEARS_TOTAL: on SMP, every write of the RT sysctls,
 *    accepted or refused, then rebuilds the sched domains: the root domain
 *    of the active CPUs is kept and its total_bw set to 0
 *    (dl_clear_root_domain()), and without cpusets nothing adds back what
 *    its tasks and fair servers hold (see sched_test_dl_rt_write());
 *  - ST_FAIR_SLICE: sched_setattr() sets, and sched_getattr() reports, a
 *    fair task's time slice in sched_runtime (EEVDF's custom slices): by
 *    default the base slice, 0.7 ms times 1 + ilog2(CPUs).
 */
#ifdef SCHED_TEST_KERNEL_6_12
#define st_kernel_thread(fn, arg, flags)	kernel_thread(fn, arg, NULL, flags)
#define ST_MNT_IDMAP	(&nop_mnt_idmap)
#define ST_KERNEL_FAIR_SERVER
#ifdef CONFIG_SCHED_CLASS_DL
#define ST_FAIR_SERVER
#endif
#ifdef CONFIG_SMP
#define ST_DL_RT_WRITE_CLEARS_TOTAL
#endif
#define ST_DL_GLOBAL_RESETS_EVERY_CPU
#define ST_FAIR_SLICE
#else
#define st_kernel_thread(fn, arg, flags)	kernel_thread(fn, arg, flags)
#define ST_MNT_IDMAP	(&init_user_ns)
#define ST_DEF_RT_BANDWIDTH
#endif

/*
 * What sched_getattr() reports in sched_runtime for a fair task (not RT,
 * not deadline): nothing on 6.1; on 6.12 its slice (ST_FAIR_SLICE), which
 * no case and no kernel thread sets, so the base slice: 0.7 ms times
 * 1 + ilog2() of the online CPUs, at most 8 (SCHED_TUNABLESCALING_LOG,
 * the default).
 */
static u64 __maybe_unused sched_test_fair_slice(void)
{
#ifdef ST_FAIR_SLICE
	return 700ULL * ST_US * (1 + ilog2(min_t(unsigned int, num_online_cpus(), 8)));
#else
	return 0;
#endif
}

/* The default sched_rt_period_us and sched_rt_runtime_us. */
#define ST_RT_PERIOD_US		1000000
#define ST_RT_RUNTIME_US	950000

/*
 * Bandwidths in BW_SHIFT (20 bits) fixed point, worked out by hand:
 * runtime * 2^20 / period, rounded down.
 */
#define ST_BW_UNIT	1048576ULL	/* 1 */
#define ST_BW_DEFAULT	996147ULL	/* 950000 / 1000000 = 996147.2 / 2^20 */
#define ST_BW_10_100	104857ULL	/* 10 ms / 100 ms = 104857.6 / 2^20 */
#define ST_BW_10_50	209715ULL	/* 10 ms / 50 ms = 209715.2 / 2^20 */
#define ST_BW_20_100	209715ULL	/* 20 ms / 100 ms */
#define ST_BW_5_100	52428ULL	/* 5 ms / 100 ms = 52428.8 / 2^20 */
#define ST_BW_40_100	419430ULL	/* 400 ms / 1 s = 419430.4 / 2^20 */

/*
 * A total far above any capacity: (u64)-1 scaled by the capacity wraps to
 * about 2^54, so a check that forgot the bw == -1 case would refuse it.
 * A multiple of 2^32: as a total it moves no extra_bw, but the preset to
 * it from a non-zero total does (see sched_test_dl_share()).
 */
#define ST_HUGE_TOTAL	BIT_ULL(55)

/*
 * One description helper for every parameter table: @array holds const
 * struct @type rows, each starting with "const char *desc".
 */
#define SCHED_TEST_PARAMS(name, array, type)				\
	static void name##_desc(const struct type *c, char *desc)	\
	{								\
		strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);		\
	}								\
	KUNIT_ARRAY_PARAM(name, array, name##_desc)

/* The test kthread's function: it only runs to be stopped. */
static int __maybe_unused sched_test_kthread_fn(void *data)
{
	return 0;
}

/*
 * A kthread that is created but not woken: its policy can change, but it
 * is never enqueued until it is stopped. kthread_create() returns once the
 * new thread has said it exists, which may be before it is off its
 * runqueue (on SMP it can still be going to sleep on another CPU): wait
 * for that, so that no case sees it queued.
 */
static __maybe_unused struct task_struct *sched_test_kthread(const char *name)
{
	struct task_struct *p = kthread_create(sched_test_kthread_fn, NULL, "%s",
					       name);

	if (!IS_ERR(p) && !wait_task_inactive(p, TASK_UNINTERRUPTIBLE)) {
		kthread_stop(p);
		return ERR_PTR(-EBUSY);
	}
	return p;
}

/*
 * The system calls, as user space reaches them (the *_absent suites and
 * sched_policy). x86_64 builds its system calls behind pt_regs wrappers
 * (CONFIG_ARCH_HAS_SYSCALL_WRAPPER): call them through x64_sys_call(),
 * the dispatcher do_syscall_64() uses; 32-bit ARM has the plain sys_*()
 * functions.
 */
#if defined(CONFIG_X86_64)
static long __maybe_unused sched_test_syscall4(unsigned int nr, long a, long b,
					       long c, long d)
{
	struct pt_regs regs = { .di = a, .si = b, .dx = c, .r10 = d };

	return x64_sys_call(&regs, nr);
}

static long __maybe_unused sched_test_syscall1(unsigned int nr, long arg)
{
	return sched_test_syscall4(nr, arg, 0, 0, 0);
}

static long __maybe_unused sched_test_getattr(pid_t pid, unsigned long uattr,
					      unsigned int size)
{
	return sched_test_syscall4(__NR_sched_getattr, pid, uattr, size, 0);
}

static long __maybe_unused sched_test_setattr(pid_t pid, unsigned long uattr)
{
	return sched_test_syscall4(__NR_sched_setattr, pid, uattr, 0, 0);
}

/* What a system call that is not implemented gives (kernel/sys_ni.c). */
static long __maybe_unused sched_test_ni_syscall(void)
{
	struct pt_regs regs = { };

	return __x64_sys_ni_syscall(&regs);
}

static long __maybe_unused sched_test_prio_max(int policy)
{
	return sched_test_syscall1(__NR_sched_get_priority_max, policy);
}

static long __maybe_unused sched_test_prio_min(int policy)
{
	return sched_test_syscall1(__NR_sched_get_priority_min, policy);
}

static long __maybe_unused sched_test_setparam(pid_t pid, unsigned long uparam)
{
	return sched_test_syscall4(__NR_sched_setparam, pid, uparam, 0, 0);
}

static long __maybe_unused sched_test_rr_interval(pid_t pid, unsigned long uts)
{
	return sched_test_syscall4(__NR_sched_rr_get_interval, pid, uts, 0, 0);
}

static long __maybe_unused sched_test_prlimit(pid_t pid, unsigned int resource,
					      unsigned long unew, unsigned long uold)
{
	return sched_test_syscall4(__NR_prlimit64, pid, resource, unew, uold);
}

#define SCHED_TEST_HAVE_SYSCALLS
#elif !defined(CONFIG_ARCH_HAS_SYSCALL_WRAPPER)
static long __maybe_unused sched_test_prio_max(int policy)
{
	return sys_sched_get_priority_max(policy);
}

static long __maybe_unused sched_test_prio_min(int policy)
{
	return sys_sched_get_priority_min(policy);
}

static long __maybe_unused sched_test_getattr(pid_t pid, unsigned long uattr,
					      unsigned int size)
{
	return sys_sched_getattr(pid, (struct sched_attr __user *)uattr, size, 0);
}

static long __maybe_unused sched_test_setattr(pid_t pid, unsigned long uattr)
{
	return sys_sched_setattr(pid, (struct sched_attr __user *)uattr, 0);
}

static long __maybe_unused sched_test_ni_syscall(void)
{
	return sys_ni_syscall();
}

static long __maybe_unused sched_test_setparam(pid_t pid, unsigned long uparam)
{
	return sys_sched_setparam(pid, (struct sched_param __user *)uparam);
}

static long __maybe_unused sched_test_rr_interval(pid_t pid, unsigned long uts)
{
	return sys_sched_rr_get_interval(pid, (struct __kernel_timespec __user *)uts);
}

static long __maybe_unused sched_test_prlimit(pid_t pid, unsigned int resource,
					      unsigned long unew, unsigned long uold)
{
	return sys_prlimit64(pid, resource, (const struct rlimit64 __user *)unew,
			     (struct rlimit64 __user *)uold);
}

#define SCHED_TEST_HAVE_SYSCALLS
#endif

/*
 * A file system of type @fs mounted inside the kernel, attached to no
 * path (kern_unmount() it), or an error.
 */
static __maybe_unused struct vfsmount *sched_test_mount(const char *fs)
{
	struct file_system_type *type = get_fs_type(fs);
	struct vfsmount *mnt;

	if (!type)
		return ERR_PTR(-ENODEV);
	mnt = vfs_kern_mount(type, 0, fs, NULL);
	put_filesystem(type);
	return mnt;
}

/*
 * User memory, for the entry points that copy to it as they do for user
 * space (sched_getattr(), read() of the debug files): the test kthread
 * borrows a new mm with @size bytes of anonymous memory, as upstream
 * KUnit's kunit_attach_mm() does (v6.10), and gives it back at the end.
 */
struct sched_test_user {
	struct mm_struct *mm;
	unsigned long addr;
	size_t size;
};

static int __maybe_unused sched_test_user_map(struct sched_test_user *u, size_t size)
{
	u->size = size;
	u->mm = mm_alloc();
	if (!u->mm)
		return -ENOMEM;
	u->mm->task_size = TASK_SIZE;
	arch_pick_mmap_layout(u->mm, &current->signal->rlim[RLIMIT_STACK]);
	kthread_use_mm(u->mm);
	u->addr = vm_mmap(NULL, 0, size, PROT_READ | PROT_WRITE,
			  MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(u->addr)) {
		kthread_unuse_mm(u->mm);
		mmput(u->mm);
		return (int)u->addr;
	}
	return 0;
}

static void __maybe_unused sched_test_user_unmap(struct sched_test_user *u)
{
	vm_munmap(u->addr, u->size);
	kthread_unuse_mm(u->mm);
	mmput(u->mm);
}

/*
 * Read file @path of @mnt with read(), as user space does, through the
 * user memory of @u, into @buf, NUL-terminated (at most u->size - 1
 * bytes): the length, or an error. The test runs in a kthread: the file
 * is released at once.
 */
static ssize_t __maybe_unused sched_test_read(struct vfsmount *mnt, const char *path,
					      struct sched_test_user *u, char *buf)
{
	struct file *f = file_open_root_mnt(mnt, path, O_RDONLY, 0);
	char __user *ubuf = (char __user *)u->addr;
	size_t len = 0;
	loff_t pos = 0;
	ssize_t n = 0;

	if (IS_ERR(f))
		return PTR_ERR(f);
	while (len < u->size - 1) {
		n = vfs_read(f, ubuf + len, u->size - 1 - len, &pos);
		if (n <= 0)
			break;
		len += n;
	}
	__fput_sync(f);
	if (n < 0)
		return n;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	return len;
}

/*
 * Write @val into file @path of @mnt with write(), as user space does,
 * through the user memory of @u: the bytes written, or an error.
 */
static ssize_t __maybe_unused sched_test_write(struct vfsmount *mnt, const char *path,
					       struct sched_test_user *u, const char *val)
{
	struct file *f = file_open_root_mnt(mnt, path, O_WRONLY, 0);
	size_t len = min(strlen(val), u->size);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	if (copy_to_user((char __user *)u->addr, val, len))
		n = -EFAULT;
	else
		n = vfs_write(f, (const char __user *)u->addr, len, &pos);
	__fput_sync(f);
	return n;
}

/* sched_getattr() of task @pid into @attr, through the user page of @u. */
static long __maybe_unused sched_test_getattr_user(struct sched_test_user *u, pid_t pid,
						   struct sched_attr *attr)
{
	long ret;

	memset(attr, 0xa5, sizeof(*attr));
	if (clear_user((void __user *)u->addr, sizeof(*attr)))
		return -EFAULT;
	ret = sched_test_getattr(pid, u->addr, sizeof(*attr));
	if (!ret && copy_from_user(attr, (void __user *)u->addr, sizeof(*attr)))
		return -EFAULT;
	return ret;
}

/* The integer after "@key ... :" at the start of a line of @buf, or -1. */
static long __maybe_unused sched_test_field(const char *buf, const char *key)
{
	const char *s = buf;
	long val;

	while ((s = strstr(s, key))) {
		if ((s == buf || s[-1] == '\n') && s[strlen(key)] == ' ') {
			s = strchr(s, ':');
			if (s && sscanf(s + 1, "%ld", &val) == 1)
				return val;
			return -1;
		}
		s++;
	}
	return -1;
}

/*
 * The scheduler settings a suite may change and must give back: the RT
 * throttling sysctls and the RR time slice (rt.c), the root task group's
 * RT runtime and period, and the deadline period limits (deadline.c).
 * A suite reads them when it starts and checks them after every case
 * (its .exit): a case that leaks one fails itself, instead of making a
 * later case or suite skip.
 */
struct sched_test_global {
#ifdef CONFIG_SCHED_CLASS_RT
	unsigned int rt_period;
	int rt_runtime;
	int rr_timeslice;
#ifdef ST_DEF_RT_BANDWIDTH
	u64 def_rt_runtime;
	ktime_t def_rt_period;
#endif
#endif
#ifdef CONFIG_RT_GROUP_SCHED
	u64 root_rt_runtime;
	ktime_t root_rt_period;
#endif
#ifdef CONFIG_SCHED_CLASS_DL
	unsigned int dl_period_max, dl_period_min;
#endif
	int unused;	/* no member at all is not C */
};

static void __maybe_unused sched_test_global_read(struct sched_test_global *g)
{
	memset(g, 0, sizeof(*g));
#ifdef CONFIG_SCHED_CLASS_RT
	g->rt_period = READ_ONCE(sysctl_sched_rt_period);
	g->rt_runtime = READ_ONCE(sysctl_sched_rt_runtime);
	g->rr_timeslice = READ_ONCE(sched_rr_timeslice);
#ifdef ST_DEF_RT_BANDWIDTH
	g->def_rt_runtime = READ_ONCE(def_rt_bandwidth.rt_runtime);
	g->def_rt_period = READ_ONCE(def_rt_bandwidth.rt_period);
#endif
#endif
#ifdef CONFIG_RT_GROUP_SCHED
	g->root_rt_runtime = READ_ONCE(root_task_group.rt_bandwidth.rt_runtime);
	g->root_rt_period = READ_ONCE(root_task_group.rt_bandwidth.rt_period);
#endif
#ifdef CONFIG_SCHED_CLASS_DL
	g->dl_period_max = READ_ONCE(sysctl_sched_dl_period_max);
	g->dl_period_min = READ_ONCE(sysctl_sched_dl_period_min);
#endif
}

static void __maybe_unused sched_test_global_expect(struct kunit *test,
						    const struct sched_test_global *start)
{
	struct sched_test_global now;

	sched_test_global_read(&now);
#ifdef CONFIG_SCHED_CLASS_RT
	KUNIT_EXPECT_EQ_MSG(test, now.rt_period, start->rt_period, "sched_rt_period_us leaked");
	KUNIT_EXPECT_EQ_MSG(test, now.rt_runtime, start->rt_runtime,
			    "sched_rt_runtime_us leaked");
	KUNIT_EXPECT_EQ_MSG(test, now.rr_timeslice, start->rr_timeslice,
			    "sched_rr_timeslice leaked");
#ifdef ST_DEF_RT_BANDWIDTH
	KUNIT_EXPECT_EQ_MSG(test, now.def_rt_runtime, start->def_rt_runtime,
			    "def_rt_bandwidth runtime leaked");
	KUNIT_EXPECT_EQ_MSG(test, now.def_rt_period, start->def_rt_period,
			    "def_rt_bandwidth period leaked");
#endif
#endif
#ifdef CONFIG_RT_GROUP_SCHED
	KUNIT_EXPECT_EQ_MSG(test, now.root_rt_runtime, start->root_rt_runtime,
			    "the root task group's RT runtime leaked");
	KUNIT_EXPECT_EQ_MSG(test, now.root_rt_period, start->root_rt_period,
			    "the root task group's RT period leaked");
#endif
#ifdef CONFIG_SCHED_CLASS_DL
	KUNIT_EXPECT_EQ_MSG(test, now.dl_period_max, start->dl_period_max,
			    "sched_deadline_period_max_us leaked");
	KUNIT_EXPECT_EQ_MSG(test, now.dl_period_min, start->dl_period_min,
			    "sched_deadline_period_min_us leaked");
#endif
}

/* What every suite found when it started (its .suite_init reads it). */
static struct sched_test_global sched_test_global_start;

static int __maybe_unused sched_test_global_suite_init(struct kunit_suite *suite)
{
	sched_test_global_read(&sched_test_global_start);
	return 0;
}

/* At the end of every suite's .exit: the case put everything back. */
static void __maybe_unused sched_test_global_kept(struct kunit *test)
{
	sched_test_global_expect(test, &sched_test_global_start);
}

#ifdef CONFIG_SYSCTL
/*
 * Write @value into sysctl @name of the @n entries of @table through its
 * handler, as /proc would (6.1's tables end with an empty entry, 6.12's
 * do not).
 */
static int __maybe_unused sched_test_sysctl(struct kunit *test,
					    struct ctl_table *table, size_t n,
					    const char *name, long value)
{
	char buf[24];
	size_t len = scnprintf(buf, sizeof(buf), "%ld", value);
	loff_t pos = 0;

	for (; n && table->procname; n--, table++)
		if (!strcmp(table->procname, name))
			return table->proc_handler(table, 1, buf, &len, &pos);
	KUNIT_FAIL(test, "no sysctl %s", name);
	return -ENOENT;
}

#ifdef CONFIG_SCHED_CLASS_RT
static int __maybe_unused sched_test_rt_sysctl(struct kunit *test,
					       const char *name, long value)
{
	return sched_test_sysctl(test, sched_rt_sysctls, ARRAY_SIZE(sched_rt_sysctls),
				 name, value);
}

/* Skip, saying so, on a kernel booted with other RT bandwidth sysctls. */
static void __maybe_unused sched_test_require_default_rt_sysctls(struct kunit *test)
{
	unsigned int period = READ_ONCE(sysctl_sched_rt_period);
	int runtime = READ_ONCE(sysctl_sched_rt_runtime);

	if (period != ST_RT_PERIOD_US || runtime != ST_RT_RUNTIME_US)
		kunit_skip(test,
			   "sched_rt_period_us %u, sched_rt_runtime_us %d: the model assumes %d and %d",
			   period, runtime, ST_RT_PERIOD_US, ST_RT_RUNTIME_US);
}
#endif /* CONFIG_SCHED_CLASS_RT */
#endif /* CONFIG_SYSCTL */

#ifdef CONFIG_SCHED_CLASS_DL
/* The deadline bandwidth state of every CPU. */
struct sched_test_dl_cpu {
	/*
	 * The domain it belongs to, by its first CPU: a root domain that is
	 * rebuilt alike (CPU hotplug) is the same domain.
	 */
	int domain;
	u64 bw;
	u64 total_bw;
	u64 running_bw;
	u64 this_bw;
	u64 extra_bw;
};

struct sched_test_dl {
	struct sched_test_dl_cpu *cpu;	/* nr_cpu_ids entries */
};

static int __maybe_unused sched_test_dl_alloc(struct kunit *test,
					      struct sched_test_dl *s)
{
	s->cpu = kunit_kcalloc(test, nr_cpu_ids, sizeof(*s->cpu), GFP_KERNEL);
	return s->cpu ? 0 : -ENOMEM;
}

static void __maybe_unused sched_test_dl_copy(struct sched_test_dl *to,
					      const struct sched_test_dl *from)
{
	memcpy(to->cpu, from->cpu, nr_cpu_ids * sizeof(*to->cpu));
}

/* Called with interrupts off (a runqueue lock held): the rd is stable. */
static int sched_test_dl_domain_id(int cpu)
{
#ifdef CONFIG_SMP
	return cpumask_first(cpu_rq(cpu)->rd->span);
#else
	return cpu;
#endif
}

/*
 * sched_dl_overflow() runs under the runqueue lock of its task and takes
 * the dl_bw lock inside it: the same order here.
 */
static struct dl_bw *sched_test_dl_lock(int cpu, struct rq_flags *rf)
{
	struct dl_bw *dl_b;

	rq_lock_irqsave(cpu_rq(cpu), rf);
	dl_b = dl_bw_of(cpu);
	raw_spin_lock(&dl_b->lock);
	return dl_b;
}

static void sched_test_dl_unlock(int cpu, struct dl_bw *dl_b,
				 struct rq_flags *rf)
{
	raw_spin_unlock(&dl_b->lock);
	rq_unlock_irqrestore(cpu_rq(cpu), rf);
}

/*
 * 6.12's fair server (ST_FAIR_SERVER): a deadline entity per runqueue, 50
 * ms every second (ST_BW_SERVER), set up when the CPU first queues a fair
 * task (dl_server_start(), dl_server_apply_params()). From then on it
 * holds its bandwidth in the domain's total_bw and its runqueue's this_bw
 * (its share of extra_bw taken as any admission takes it), which the
 * suites find at their start and model from there. It also holds it in
 * running_bw while it is active, and after it stops until its 0-lag time
 * (dl_server_stop(), task_non_contending()): that follows the fair tasks
 * of its CPU, not the cases, so a snapshot's running_bw leaves it out.
 */
#define ST_SERVER_RUNTIME	(50 * ST_MS)
#define ST_BW_SERVER	52428ULL	/* 50 ms / 1 s = 52428.8 / 2^20 */

/* What @rq's fair server holds in this_bw (and in total_bw); 0 if none. */
static u64 sched_test_dl_server_bw(struct rq *rq)
{
#ifdef ST_FAIR_SERVER
	const struct sched_dl_entity *srv = &rq->fair_server;

	return srv->dl_server ? srv->dl_bw : 0;
#else
	return 0;
#endif
}

/* What @rq's fair server holds in its running_bw now; @rq locked. */
static u64 sched_test_dl_server_running(struct rq *rq)
{
#ifdef ST_FAIR_SERVER
	const struct sched_dl_entity *srv = &rq->fair_server;

	lockdep_assert_rq_held(rq);
	if (srv->dl_server_active || srv->dl_non_contending)
		return srv->dl_bw;
#endif
	return 0;
}

/* Read, never write: a snapshot to compare with. */
static void sched_test_dl_read(struct sched_test_dl *s)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct dl_rq *dl = &cpu_rq(cpu)->dl;
		struct sched_test_dl_cpu *c = &s->cpu[cpu];
		struct rq_flags rf;
		struct dl_bw *dl_b = sched_test_dl_lock(cpu, &rf);

		c->domain = sched_test_dl_domain_id(cpu);
		c->bw = dl_b->bw;
		c->total_bw = dl_b->total_bw;
		c->running_bw = dl->running_bw -
				sched_test_dl_server_running(cpu_rq(cpu));
		c->this_bw = dl->this_bw;
		c->extra_bw = dl->extra_bw;
		sched_test_dl_unlock(cpu, dl_b, &rf);
	}
}

static bool sched_test_dl_equal(const struct sched_test_dl *a,
				const struct sched_test_dl *b)
{
	return !memcmp(a->cpu, b->cpu, nr_cpu_ids * sizeof(*a->cpu));
}

static void __maybe_unused sched_test_dl_expect(struct kunit *test,
						const struct sched_test_dl *want,
						const char *when)
{
	struct sched_test_dl got;
	int cpu;

	/* Also called from .exit, where an assertion must not abort. */
	if (sched_test_dl_alloc(test, &got)) {
		KUNIT_FAIL(test, "no memory to check the state %s", when);
		return;
	}
	sched_test_dl_read(&got);
	for_each_possible_cpu(cpu) {
		const struct sched_test_dl_cpu *g = &got.cpu[cpu], *w = &want->cpu[cpu];

		KUNIT_EXPECT_EQ_MSG(test, g->domain, w->domain,
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

/*
 * Wait up to a second for the state to become @want, then check it: a
 * deadline task that is stopped gives its bandwidth back when it dies, or
 * at its 0-lag time from its inactive timer (task_non_contending(),
 * inactive_task_timer(), task_dead_dl()).
 */
static void __maybe_unused sched_test_dl_wait(struct kunit *test,
					      const struct sched_test_dl *want,
					      const char *when)
{
	struct sched_test_dl got;
	int i;

	if (sched_test_dl_alloc(test, &got)) {
		KUNIT_FAIL(test, "no memory to check the state %s", when);
		return;
	}
	for (i = 0; i < 50; i++) {
		sched_test_dl_read(&got);
		if (sched_test_dl_equal(&got, want))
			break;
		msleep(20);
	}
	sched_test_dl_expect(test, want, when);
}

/*
 * The suites own the deadline accounting while they run: none may start
 * when the system holds deadline bandwidth already (a deadline task; a
 * sugov kthread is not accounted), beyond what the fair servers hold: in
 * this_bw each its own, in total_bw those of the domain's active CPUs.
 * Returns the first CPU that holds some, or -1.
 */
static int sched_test_dl_busy_cpu(const struct sched_test_dl *s)
{
	int cpu, other;

	for_each_possible_cpu(cpu) {
		const struct sched_test_dl_cpu *c = &s->cpu[cpu];
		u64 servers = 0;

		for_each_possible_cpu(other)
			if (s->cpu[other].domain == c->domain && cpu_active(other))
				servers += sched_test_dl_server_bw(cpu_rq(other));
		if (c->total_bw != servers || c->running_bw ||
		    c->this_bw != sched_test_dl_server_bw(cpu_rq(cpu)))
			return cpu;
	}
	return -1;
}

/* The state a deadline suite found, and whether it may run at all. */
static struct sched_test_dl sched_test_dl_suite_start;
static int sched_test_dl_suite_busy = -1;

/*
 * Skip a case, with the reason, when the suite found deadline bandwidth
 * at its start; fail it when the bandwidth was left by an earlier case
 * (that case failed too: it checks its own undo), so that a leak shows
 * as red in every later case rather than as skips.
 */
static int __maybe_unused sched_test_dl_require_idle(struct kunit *test,
						     const struct sched_test_dl *s)
{
	const struct sched_test_dl_cpu *c;
	int cpu = sched_test_dl_suite_busy;

	if (cpu >= 0) {
		c = &sched_test_dl_suite_start.cpu[cpu];
		kunit_skip(test,
			   "CPU%d held deadline bandwidth when the suite started (total %llu, this %llu, running %llu)",
			   cpu, c->total_bw, c->this_bw, c->running_bw);
	}
	cpu = sched_test_dl_busy_cpu(s);
	if (cpu < 0)
		return 0;
	c = &s->cpu[cpu];
	KUNIT_FAIL(test,
		   "CPU%d holds deadline bandwidth an earlier case left (total %llu, this %llu, running %llu)",
		   cpu, c->total_bw, c->this_bw, c->running_bw);
	return -EBUSY;
}

/* The model. */

/* Does @other share the admission-control domain (dl_bw) of @cpu? */
static bool sched_test_dl_same_domain(int cpu, int other)
{
#ifdef CONFIG_SMP
	bool same;

	rcu_read_lock_sched();
	same = cpu_rq(cpu)->rd == cpu_rq(other)->rd;
	rcu_read_unlock_sched();
	return same;
#else
	return cpu == other;
#endif
}

/* Does admitting bandwidth in @cpu's domain move @other's extra_bw? */
static bool sched_test_dl_shares_extra(int cpu, int other)
{
#ifdef CONFIG_SMP
	return sched_test_dl_same_domain(cpu, other) && cpu_active(other);
#else
	return cpu == other;
#endif
}

/*
 * The domain of @cpu as the model sees it: its active CPUs, each of full
 * capacity (SCHED_CAPACITY_SCALE under QEMU), and the default 95% of each.
 */
struct sched_test_dl_domain {
	int cpus;
	u64 cap;
	u64 limit;
};

static struct sched_test_dl_domain __maybe_unused
sched_test_dl_model_domain(int cpu)
{
	struct sched_test_dl_domain d = { .cpus = 1 };

#ifdef CONFIG_SMP
	rcu_read_lock_sched();
	d.cpus = cpumask_weight_and(cpu_rq(cpu)->rd->span, cpu_active_mask);
	rcu_read_unlock_sched();
#endif
	d.cap = (u64)d.cpus * SCHED_CAPACITY_SCALE;
	d.limit = ST_BW_DEFAULT * d.cpus;
	return d;
}

/* Skip where the model does not hold: asymmetric CPUs or other sysctls. */
static void __maybe_unused sched_test_dl_require_model(struct kunit *test)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (arch_scale_cpu_capacity(cpu) != SCHED_CAPACITY_SCALE)
			kunit_skip(test, "CPU%d has capacity %lu: the model assumes %lu",
				   cpu, arch_scale_cpu_capacity(cpu),
				   SCHED_CAPACITY_SCALE);
#ifdef CONFIG_SYSCTL
	sched_test_require_default_rt_sysctls(test);
#endif
}

/*
 * Admitting @bw in a domain of @cpus CPUs takes an equal share, rounded
 * toward zero, from the extra_bw of each of its active CPUs. The share is
 * a 32-bit quantity: __dl_add() and __dl_sub() cast the amount to s32
 * before they divide it, so an amount beyond 32 bits moves extra_bw by
 * its low 32 bits, signed (a multiple of 2^32 moves none).
 */
static s64 sched_test_dl_share(s64 bw, int cpus)
{
	return (s32)lower_32_bits(bw) / cpus;
}

/* Admit (@bw > 0) or release (@bw < 0) @bw in @cpu's domain, in the model. */
static void __maybe_unused sched_test_dl_model_add(struct sched_test_dl *s,
						   int cpu, s64 bw, int cpus)
{
	int other;

	for_each_possible_cpu(other) {
		if (sched_test_dl_same_domain(cpu, other))
			s->cpu[other].total_bw += bw;
		if (sched_test_dl_shares_extra(cpu, other))
			s->cpu[other].extra_bw -= sched_test_dl_share(bw, cpus);
	}
}

/*
 * Does sched_dl_do_global() reset @cpu's extra_bw (and bw_ratio)?
 *
 * Known 6.1 behaviour: only the first CPU of each root domain's, because
 * the loop skips the CPUs of a domain it has visited (dl_bw_visited());
 * the other CPUs keep stale values. Upstream 440989c10f4e
 * ("sched/deadline: Fix accounting after global limits change", Juri
 * Lelli) resets every CPU's; 6.1.192 does not have it, 6.12.118 does
 * (ST_DL_GLOBAL_RESETS_EVERY_CPU). Either way the reset forgets what was
 * admitted: on 6.12 the fair servers' shares of extra_bw too.
 */
static bool __maybe_unused sched_test_dl_global_resets(int cpu)
{
#ifndef ST_DL_GLOBAL_RESETS_EVERY_CPU
	int other;

	for_each_possible_cpu(other) {
		if (other >= cpu)
			break;
		if (sched_test_dl_same_domain(cpu, other))
			return false;
	}
#endif
	return true;
}

/*
 * What sched_dl_do_global() makes of a new sched_rt_runtime_us, in the
 * model: the domain's limit per CPU (-1 when it is off), and the extra_bw
 * of the runqueues it resets set to it (BW_UNIT when off).
 */
static void __maybe_unused sched_test_dl_model_global(struct sched_test_dl *s,
						      u64 bw)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		s->cpu[cpu].bw = bw;
		if (sched_test_dl_global_resets(cpu))
			s->cpu[cpu].extra_bw = bw == (u64)-1 ? ST_BW_UNIT : bw;
	}
}

/*
 * After a write of the RT sysctls on 6.12 SMP (ST_DL_RT_WRITE_CLEARS_TOTAL)
 * the active CPUs' root domain has forgotten all it had admitted, the
 * fair servers' bandwidth too, and 6.12.118 does not add the servers'
 * back: each write here does, through the call rq_attach_root() makes
 * for a runqueue that joins a root domain, __dl_server_attach_root(). So
 * after a write the domain holds the servers' bandwidth and nothing else:
 * what tasks and presets held before it is gone from total_bw (their
 * release takes it away again; the model follows).
 */
static void __maybe_unused sched_test_dl_servers_attach(void)
{
#ifdef ST_DL_RT_WRITE_CLEARS_TOTAL
	int cpu;

	cpus_read_lock();
	for_each_cpu(cpu, cpu_active_mask) {
		struct rq *rq = cpu_rq(cpu);
		struct rq_flags rf;

		rq_lock_irqsave(rq, &rf);
		if (sched_test_dl_server_bw(rq))
			__dl_server_attach_root(&rq->fair_server, rq);
		rq_unlock_irqrestore(rq, &rf);
	}
	cpus_read_unlock();
#endif
}

/* The same, in the model of @s: the domain of @cpus active CPUs. */
static void __maybe_unused sched_test_dl_model_rt_write(struct sched_test_dl *s,
							int cpus)
{
#ifdef ST_DL_RT_WRITE_CLEARS_TOTAL
	int cpu;

	for_each_cpu(cpu, cpu_active_mask)
		s->cpu[cpu].total_bw = 0;
	for_each_cpu(cpu, cpu_active_mask)
		sched_test_dl_model_add(s, cpu, sched_test_dl_server_bw(cpu_rq(cpu)), cpus);
#endif
}

#ifdef CONFIG_SYSCTL
/* Write RT bandwidth sysctl @name, and give the fair servers theirs back. */
static int __maybe_unused sched_test_dl_rt_write(struct kunit *test,
						 const char *name, long value)
{
	int ret = sched_test_rt_sysctl(test, name, value);

	sched_test_dl_servers_attach();
	return ret;
}
#endif

/*
 * Add @delta (< 0: take it away) to the total admitted in @cpu's domain
 * through the kernel's own accounting calls, as sched_dl_overflow() does.
 */
static void __maybe_unused sched_test_dl_account(int cpu, s64 delta)
{
	struct rq_flags rf;
	struct dl_bw *dl_b = sched_test_dl_lock(cpu, &rf);
	int cpus = dl_bw_cpus(cpu);

	if (delta >= 0)
		__dl_add(dl_b, delta, cpus);
	else
		__dl_sub(dl_b, -delta, cpus);
	sched_test_dl_unlock(cpu, dl_b, &rf);
}

/*
 * A deadline case's context: the state it started from, the model of the
 * state it expects, the test kthread, and what it must give back.
 */
struct sched_test_dl_ctx {
	struct sched_test_dl start;
	struct sched_test_dl want;
	struct sched_test_dl_domain d;
	int cpu;
	struct task_struct *p;		/* the test kthread */
	struct task_struct *donor;	/* a second one, or NULL */
	/* The bandwidth the model says each kthread holds. */
	u64 p_bw, donor_bw;
	/*
	 * Every change the case made, or saw the kernel make, to the
	 * domain's total that no task will give back (presets, direct calls
	 * of the accounting functions, the 6.1 never-run leak), in order:
	 * the exit undoes each with the opposite call of the same amount,
	 * last first, so that even the rounding of extra_bw comes back.
	 */
	s64 held[16];
	int nr_held;
	/* The case wrote sched_rt_runtime_us: the exit writes it back. */
	bool rt_sysctl;
	/* The case changed the root task group's RT bandwidth. */
	bool root_rt;
	/* The case took CPU offline_cpu offline: the exit brings it back. */
	bool cpu_offline;
	int offline_cpu;
	/* The case turned the fair servers off: the exit turns them on. */
	bool servers_off;
};

/* The kernel changed the total by @delta, and no task will undo it. */
static void __maybe_unused sched_test_dl_hold(struct kunit *test,
					      struct sched_test_dl_ctx *ctx,
					      s64 delta)
{
	/* Called from cases only: an abort leaves the exit to undo the rest. */
	KUNIT_ASSERT_LT(test, ctx->nr_held, (int)ARRAY_SIZE(ctx->held));
	ctx->held[ctx->nr_held++] = delta;
}

/* Add @delta to the domain's total, in the kernel and in the model. */
static void __maybe_unused sched_test_dl_preset(struct kunit *test,
						struct sched_test_dl_ctx *ctx,
						s64 delta)
{
	sched_test_dl_hold(test, ctx, delta);
	sched_test_dl_account(ctx->cpu, delta);
	sched_test_dl_model_add(&ctx->want, ctx->cpu, delta, ctx->d.cpus);
}

/* Undo every held change, last first. */
static void __maybe_unused sched_test_dl_unhold(struct sched_test_dl_ctx *ctx)
{
	while (ctx->nr_held) {
		s64 delta = ctx->held[--ctx->nr_held];

		sched_test_dl_account(ctx->cpu, -delta);
		sched_test_dl_model_add(&ctx->want, ctx->cpu, -delta, ctx->d.cpus);
	}
}

/* Make the domain's total @total, from the model's idea of it. */
static void __maybe_unused sched_test_dl_preset_total(struct kunit *test,
						      struct sched_test_dl_ctx *ctx,
						      u64 total)
{
	sched_test_dl_preset(test, ctx, total - ctx->want.cpu[ctx->cpu].total_bw);
}

/*
 * Task @t (the test kthread or the donor) is now a deadline task holding
 * @bw, recorded in @task_bw: the model follows. Not queued, so
 * switched_to_dl() accounts it in its runqueue's this_bw alone.
 */
static void __maybe_unused sched_test_dl_model_task(struct sched_test_dl_ctx *ctx,
						    struct task_struct *t,
						    u64 *task_bw, u64 bw)
{
	int cpu = task_cpu(t);

	sched_test_dl_model_add(&ctx->want, cpu, bw, ctx->d.cpus);
	ctx->want.cpu[cpu].this_bw += bw;
	*task_bw = bw;
}

/*
 * The test kthread's accepted change from the bandwidth the model says it
 * holds to @new_bw, in the model: sched_dl_overflow() releases the old
 * (__dl_sub()) and admits the new (__dl_add()), two steps that each round
 * their share of extra_bw, and dl_change_utilization() moves this_bw of
 * the task's runqueue by the difference.
 */
static void __maybe_unused sched_test_dl_model_change(struct sched_test_dl_ctx *ctx,
						      u64 new_bw)
{
	int cpu = task_cpu(ctx->p);

	sched_test_dl_model_add(&ctx->want, cpu, -(s64)ctx->p_bw, ctx->d.cpus);
	sched_test_dl_model_add(&ctx->want, cpu, new_bw, ctx->d.cpus);
	ctx->want.cpu[cpu].this_bw += new_bw - ctx->p_bw;
	ctx->p_bw = new_bw;
}

#ifdef ST_FAIR_SERVER
/*
 * Give every online CPU's fair server @runtime every period, as a write
 * of sched/fair_server/cpuN/runtime does (sched_fair_server_write():
 * stop it, dl_server_apply_params(), start it again if fair tasks are
 * queued), and the model follows with @model_bw, the bandwidth that
 * gives: apply_params() releases the old bandwidth (__dl_sub()) and
 * admits the new (__dl_add()), and moves this_bw from one to the other.
 * Returns the first error.
 */
static int __maybe_unused sched_test_dl_servers_set(struct sched_test_dl_ctx *ctx,
						    u64 runtime, u64 model_bw)
{
	int cpu, ret = 0;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		struct sched_dl_entity *srv = &rq->fair_server;
		struct rq_flags rf;
		u64 old;
		int err;

		rq_lock_irqsave(rq, &rf);
		old = sched_test_dl_server_bw(rq);
		if (!srv->dl_server) {
			rq_unlock_irqrestore(rq, &rf);
			continue;
		}
		update_rq_clock(rq);
		dl_server_stop(srv);
		err = dl_server_apply_params(srv, runtime, srv->dl_period, false);
		if (rq->cfs.h_nr_queued)
			dl_server_start(srv);
		rq_unlock_irqrestore(rq, &rf);
		if (err) {
			ret = ret ?: err;
			continue;
		}
		sched_test_dl_model_add(&ctx->want, cpu, -(s64)old, ctx->d.cpus);
		sched_test_dl_model_add(&ctx->want, cpu, model_bw, ctx->d.cpus);
		ctx->want.cpu[cpu].this_bw += model_bw - old;
	}
	cpus_read_unlock();
	return ret;
}
#endif

#ifdef CONFIG_SYSCTL
/* Write sched_rt_runtime_us; the model follows an accepted value. */
static int __maybe_unused sched_test_dl_rt_runtime(struct kunit *test,
						   struct sched_test_dl_ctx *ctx,
						   long runtime_us, u64 model_bw)
{
	int ret;

	ctx->rt_sysctl = true;
	ret = sched_test_dl_rt_write(test, "sched_rt_runtime_us", runtime_us);
	if (!ret)
		sched_test_dl_model_global(&ctx->want, model_bw);
	sched_test_dl_model_rt_write(&ctx->want, ctx->d.cpus);
#ifdef ST_DL_RT_WRITE_CLEARS_TOTAL
	/*
	 * The domain forgot what the case held: nothing to give back (their
	 * shares of extra_bw go with the next accepted write, the exit's).
	 */
	ctx->nr_held = 0;
#endif
	return ret;
}
#endif

static int __maybe_unused sched_test_dl_ctx_init(struct kunit *test,
						 struct sched_test_dl_ctx *ctx,
						 const char *name)
{
	struct task_struct *p;

	if (sched_test_dl_alloc(test, &ctx->start))
		return -ENOMEM;
	sched_test_dl_read(&ctx->start);
	if (sched_test_dl_require_idle(test, &ctx->start))
		return -EBUSY;
	sched_test_dl_require_model(test);
	/* From here on, the exit checks and undoes. */
	if (sched_test_dl_alloc(test, &ctx->want))
		return -ENOMEM;
	sched_test_dl_copy(&ctx->want, &ctx->start);
	p = sched_test_kthread(name);
	if (IS_ERR(p))
		return PTR_ERR(p);
	ctx->p = p;
	ctx->cpu = task_cpu(p);
	ctx->d = sched_test_dl_model_domain(ctx->cpu);
	return 0;
}

/* Stop a test kthread; its deadline bandwidth, if any, goes as it dies. */
static void sched_test_dl_stop(struct sched_test_dl_ctx *ctx,
			       struct task_struct **p, u64 *bw)
{
	int cpu;

	if (!*p)
		return;
	cpu = task_cpu(*p);
	kthread_stop(*p);
	*p = NULL;
	if (*bw) {
		sched_test_dl_model_add(&ctx->want, cpu, -(s64)*bw, ctx->d.cpus);
		ctx->want.cpu[cpu].this_bw -= *bw;
		*bw = 0;
	}
}

/*
 * Undo a case, the way the kernel would: the state the model expects is
 * checked first; the kthreads are stopped (a deadline task gives its
 * bandwidth back as it dies, or at its 0-lag time); what the case holds
 * is given back, last first; then sched_rt_runtime_us, whose handler
 * resets extra_bw. The state must then be the one the case started from.
 */
static void __maybe_unused sched_test_dl_ctx_exit(struct kunit *test,
						  struct sched_test_dl_ctx *ctx)
{
	if (!ctx->want.cpu)
		return;
#ifdef CONFIG_HOTPLUG_CPU
	/* A case that stopped half-way may leave its CPU offline. */
	if (ctx->cpu_offline) {
		KUNIT_EXPECT_EQ(test, add_cpu(ctx->offline_cpu), 0);
		ctx->cpu_offline = false;
		sched_test_dl_copy(&ctx->want, &ctx->start);
	}
#endif
	sched_test_dl_expect(test, &ctx->want, "at the end of the case");
	sched_test_dl_stop(ctx, &ctx->p, &ctx->p_bw);
	sched_test_dl_stop(ctx, &ctx->donor, &ctx->donor_bw);
	sched_test_dl_wait(test, &ctx->want, "after stopping the kthreads");
	sched_test_dl_unhold(ctx);
#ifdef CONFIG_SYSCTL
	/*
	 * The write resets extra_bw: where what was admitted before the case
	 * had taken a share of it (on 6.12, the fair servers'), the state it
	 * leaves is the one it started from with that reset, and so is the
	 * state the suite's last case expects.
	 */
	if (ctx->rt_sysctl)
		KUNIT_EXPECT_EQ(test, sched_test_dl_rt_runtime(test, ctx, ST_RT_RUNTIME_US,
							       ST_BW_DEFAULT), 0);
#ifdef ST_FAIR_SERVER
	/* After the limit, which may not be below what they hold. */
	if (ctx->servers_off)
		KUNIT_EXPECT_EQ(test, sched_test_dl_servers_set(ctx, ST_SERVER_RUNTIME,
								ST_BW_SERVER), 0);
#endif
	if (ctx->rt_sysctl) {
		sched_test_dl_model_global(&ctx->start, ST_BW_DEFAULT);
		sched_test_dl_model_rt_write(&ctx->start, ctx->d.cpus);
		if (sched_test_dl_suite_start.cpu) {
			sched_test_dl_model_global(&sched_test_dl_suite_start,
						   ST_BW_DEFAULT);
			sched_test_dl_model_rt_write(&sched_test_dl_suite_start,
						     ctx->d.cpus);
		}
	}
#endif
#ifdef CONFIG_RT_GROUP_SCHED
	/* After the global limit: the root group may not exceed it. */
	if (ctx->root_rt)
		KUNIT_EXPECT_EQ(test, tg_set_rt_bandwidth(&root_task_group,
							  (u64)ST_RT_PERIOD_US * ST_US,
							  (u64)ST_RT_RUNTIME_US * ST_US), 0);
#endif
	sched_test_dl_expect(test, &ctx->start, "after the case was undone");
}

/* The state a deadline suite found: its last case compares with it. */
static int __maybe_unused sched_test_dl_suite_init(struct kunit_suite *suite)
{
	sched_test_dl_suite_start.cpu = kcalloc(nr_cpu_ids,
						sizeof(*sched_test_dl_suite_start.cpu),
						GFP_KERNEL);
	if (!sched_test_dl_suite_start.cpu)
		return -ENOMEM;
	sched_test_dl_read(&sched_test_dl_suite_start);
	sched_test_dl_suite_busy = sched_test_dl_busy_cpu(&sched_test_dl_suite_start);
	return sched_test_global_suite_init(suite);
}

static void __maybe_unused sched_test_dl_suite_exit(struct kunit_suite *suite)
{
	kfree(sched_test_dl_suite_start.cpu);
	sched_test_dl_suite_start.cpu = NULL;
}

/* Every deadline suite's last case. */
static void __maybe_unused sched_test_dl_suite_state_kept(struct kunit *test)
{
	sched_test_dl_expect(test, &sched_test_dl_suite_start,
			     "since the suite started");
}
#endif /* CONFIG_SCHED_CLASS_DL */

#endif /* _SCHED_TEST_UTIL_H */
