// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the scheduling classes, #included at the end of
 * kernel/sched/build_policy.c: they see deadline.c's and rt.c's static
 * functions and data, and they follow whatever code a patch moves between
 * those files.
 */

/*
 * First: the suites run in the reverse order of their definitions, and
 * this one's tasks run, fork and take deadline bandwidth until they die:
 * it runs after the suites that need a quiet system.
 */
#ifdef CONFIG_SCHED_POLICY_KUNIT_TEST
# include "policy_test.c"
#endif

#ifdef CONFIG_SCHED_DL_CHECKPARAM_KUNIT_TEST
# include "dl_checkparam_test.c"
#endif

#ifdef CONFIG_SCHED_DL_OVERFLOW_KUNIT_TEST
# include "dl_overflow_test.c"
#endif

#ifdef CONFIG_SCHED_DL_BW_KUNIT_TEST
# include "dl_bw_test.c"
#endif

#ifdef CONFIG_SCHED_RT_GROUP_KUNIT_TEST
# include "rt_group_test.c"
#endif

#ifdef CONFIG_SCHED_SETSCHEDULER_KUNIT_TEST
# include "setscheduler_test.c"
#endif

#ifdef CONFIG_SCHED_DL_ABSENT_KUNIT_TEST
# include "dl_absent_test.c"
#endif

#ifdef CONFIG_SCHED_RT_ABSENT_KUNIT_TEST
# include "rt_absent_test.c"
#endif
