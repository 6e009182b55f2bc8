# SPDX-License-Identifier: GPL-2.0
"""Tests of sched_tinify/parse.py on real console logs (fixtures/) and on
KTAP written by hand."""

import os
import sys
import tempfile
import unittest

from tests import faketree

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from sched_tinify import parse  # noqa: E402 pylint: disable=wrong-import-position

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures')
TREE = faketree.TREE


def lines_of(name):
    with open(os.path.join(FIXTURES, name, 'test.log'), encoding='utf-8',
              errors='backslashreplace') as f:
        return f.readlines()


# Two suites with a case of the same name, parameters with skip reasons,
# a case that crashed before its result line, a skipped suite.
KTAP = '''\
KTAP version 1
1..3
    KTAP version 1
    # Subtest: one
    1..2
        KTAP version 1
        # Subtest: same
        ok 1 row a
        ok 2 row b # SKIP needs SMP
    ok 1 same
    ok 2 other # SKIP no class
ok 1 one
    KTAP version 1
    # Subtest: two
    1..2
    ok 1 same # SKIP in two
    not ok 2 broken
not ok 2 two
ok 3 three # SKIP whole suite
'''


@faketree.needs_tree
class KtapTest(unittest.TestCase):
    def setUp(self):
        self.kp = parse.parser(TREE)

    def test_by_hand(self):
        results, counts, errors = parse.ktap(self.kp, KTAP.splitlines(keepends=True))
        want = {
            'one': ('PASS', ''), 'one.same': ('PASS', ''), 'one.same.row a': ('PASS', ''),
            'one.same.row b': ('SKIP', 'needs SMP'), 'one.other': ('SKIP', 'no class'),
            'two': ('FAIL', ''), 'two.same': ('SKIP', 'in two'), 'two.broken': ('FAIL', ''),
            'three': ('SKIP', 'whole suite'),
        }
        self.assertEqual(results, want)
        self.assertEqual(counts, {'PASS': 1, 'SKIP': 4, 'FAIL': 1, 'CRASH': 0})
        self.assertEqual(errors, [])

    def test_fixtures(self):
        cases = [
            # (fixture, a result it must have, counts that must be non-zero, error)
            ('pass', None, ('PASS',), None),
            ('skip-up', 'SKIP', ('PASS', 'SKIP'), None),
            ('fail', 'FAIL', ('PASS', 'FAIL'), None),
            ('crash', 'CRASH', ('PASS', 'CRASH'), None),
        ]
        for name, status, nonzero, _ in cases:
            with self.subTest(name):
                results, counts, errors = parse.ktap(self.kp, lines_of(name))
                self.assertEqual(errors, [] if name != 'crash' else errors)
                for s in ('PASS', 'SKIP', 'FAIL', 'CRASH'):
                    self.assertEqual(counts[s] > 0, s in nonzero, (s, counts))
                if status:
                    self.assertIn(status, {s for s, _ in results.values()})
                if status == 'SKIP':
                    self.assertTrue(all(r for s, r in results.values() if s == 'SKIP'))
                statuses = parse.kunit_json(os.path.join(FIXTURES, name, 'kunit.json'))
                self.assertEqual(parse.json_disagrees(results, statuses), [])

    def test_no_output(self):
        results, _, errors = parse.ktap(self.kp, ['Linux version 6.1\n', 'Kernel panic\n'])
        self.assertEqual(results, {})
        self.assertIn('no KTAP output', errors[0])

    def test_json_disagrees(self):
        results, _, _ = parse.ktap(self.kp, KTAP.splitlines(keepends=True))
        self.assertEqual(parse.json_disagrees(results, {'one.same.row a': 'PASS',
                                                        'two.broken': 'ERROR'}),
                         ['kunit.json says two.broken ERROR, the log FAIL'])
        self.assertEqual(parse.json_disagrees(results, {'one.gone': 'PASS', 'two.': 'ERROR'}),
                         ['kunit.json has one.gone, the log does not'])


class ConsoleTest(unittest.TestCase):
    def test_splats(self):
        self.assertEqual(parse.splats(lines_of('pass')), [])
        for line in ('WARNING: CPU: 0 PID: 1 at kernel/sched/core.c:1 f+0x1/0x2',
                     'BUG: KASAN: use-after-free in f', 'UBSAN: shift-out-of-bounds in x',
                     'BUG: sleeping function called from invalid context at x'):
            with self.subTest(line):
                self.assertEqual(parse.splats(['ok\n', line + '\n']), [line])

    def test_booted_cpus(self):
        self.assertEqual(parse.booted_cpus(lines_of('pass')), 4)
        self.assertEqual(parse.booted_cpus(lines_of('skip-up')), 1)
        self.assertEqual(parse.booted_cpus(['smp: Brought up 1 node, 2 CPUs']), 2)

    def test_kmemleak(self):
        problems, notes = parse.kmemleak(lines_of('kmemleak'))
        self.assertEqual(problems, [])
        self.assertRegex(notes[0], r'^kmemleak: 8 leak\(s\) allocated in early boot')
        leak = ['unreferenced object 0xffff1 (size 128):\n',
                '  comm "kunit_try_catch", pid 93, jiffies 1\n',
                '    [<000>] kmalloc_trace+0x1/0x2\n', '    [<000>] planted+0x1/0x2\n',
                'kmemleak-init: done: 1 leak\n']
        problems, notes = parse.kmemleak(leak)
        self.assertEqual(notes, [])
        self.assertEqual(problems, ['kmemleak: 1 leak(s) reported, first: '
                                    'unreferenced object 0xffff1 (size 128):'])
        self.assertEqual(parse.kmemleak_leaks(leak)[0][1:],
                         ('kunit_try_catch 93', 'kmalloc_trace planted'))
        self.assertIn('did not finish', parse.kmemleak(['ok\n'])[0][0])
        self.assertEqual(parse.kmemleak(['kmemleak-init: error: no debugfs\n'])[0],
                         ['kmemleak: kmemleak-init: error: no debugfs'])

    def test_boot_leak(self):
        self.assertTrue(parse.boot_leak('swapper/0 0', 'kmalloc start_kernel'))
        self.assertFalse(parse.boot_leak('swapper/0 0', 'kmalloc run_timer_softirq'))
        self.assertFalse(parse.boot_leak('kunit_try_catch 93', 'start_kernel'))


class WarningsTest(unittest.TestCase):
    LOG = [
        '/w/linux/kernel/sched/core.c:12:5: warning: no previous prototype for f\n',
        'kernel/sched/core.c:99: warning: no previous prototype for f\n',
        '../kernel/locking/rtmutex.c:7: warning: Function parameter x not described\n',
        'mm/slab.c:1:1: warning: unrelated\n',
        'include/linux/sched.h:3: error: not a warning\n',
    ]

    def test_scope(self):
        found = parse.warnings(self.LOG)
        self.assertEqual(len(found), 4)
        self.assertEqual(parse.located(found, ['kernel/locking/rtmutex.c', ''], False), [
            'kernel/locking/rtmutex.c: warning: Function parameter x not described',
            'kernel/sched/core.c: warning: no previous prototype for f'])
        self.assertEqual(parse.located(found, ['kernel/locking/rtmutex.c'], True),
                         ['kernel/sched/core.c: warning: no previous prototype for f'])
        self.assertIn('locking/rtmutex.c: warning: Function parameter x not described',
                      parse.located(found, ['locking/rtmutex.c'], False))


@faketree.needs_tree
class KconfigTest(unittest.TestCase):
    def test_the_tree_s_kunit_config_reads_options(self):
        """What the harness relies on of kunit_config: parse_file() and as_entries(), names without
        CONFIG_, "is not set" as n, values as written, comments and blank lines ignored."""
        with tempfile.NamedTemporaryFile('w', suffix='.config') as f:
            f.write('# a comment\nCONFIG_SMP=y\n\n# CONFIG_SCHED_CLASS_RT is not set\n'
                    'CONFIG_NR_CPUS=8\nCONFIG_CMDLINE="a b"\n')
            f.flush()
            self.assertEqual(parse.kconfig(TREE, f.name), {
                'SMP': 'y', 'SCHED_CLASS_RT': 'n', 'NR_CPUS': '8', 'CMDLINE': '"a b"'})
        with self.assertRaises(FileNotFoundError):
            parse.tool('/nonexistent', 'kunit_config')

if __name__ == '__main__':
    unittest.main()
