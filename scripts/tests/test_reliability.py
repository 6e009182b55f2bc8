# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the reliability tooling: the debug cells' judging in
scripts/report.py (kmemleak, the plain cell as reference), scripts/flakes.py
(repeated boots) and the reliability section of the report.

On real output: fixtures/kmemleak is a debug cell's run, fixtures/pass and
fixtures/fail are plain runs (fixtures/README). Needs the kernel tree's
kunit_parser, as test_report.py does.
"""

import contextlib
import io
import json
import os
import shutil
import tempfile
import unittest

import flakes
import matrix
import report
import selfcheck
from tests.test_report import (CELL, HERE, SHA0, SHA1, TREE, ReportTestCase, fixture,
                               setUpModule)  # noqa: F401 pylint: disable=unused-import

STEP1 = '01-move'


class KmemleakTest(ReportTestCase):

    def put_kmemleak(self, step, sha, log=None):
        self.put(step, sha, 'kmemleak', log=log)

    def test_boot_leaks_are_noted_not_counted(self):
        self.put_kmemleak('00-baseline', SHA0)
        cell = self.cell('00-baseline', SHA0)
        self.assertEqual(cell.problems, [])
        self.assertEqual(len(cell.notes), 1)
        self.assertIn('8 leak(s) allocated in early boot (start_kernel(), pid 0', cell.notes[0])
        self.assertEqual(cell.counts['PASS'], 130)

    def test_leak_of_a_task_is_red(self):
        log = fixture('kmemleak', 'test.log').replace(
            'comm "swapper/0", pid 0,', 'comm "kunit_try_catch", pid 57,', 1)
        self.put_kmemleak('00-baseline', SHA0, log=log)
        cell = self.cell('00-baseline', SHA0)
        self.assertEqual(len(cell.problems), 1, cell.problems)
        self.assertTrue(cell.problems[0].startswith(
            'kmemleak: 1 leak(s) reported, first: unreferenced object 0x'))
        self.assertIn('7 leak(s) allocated in early boot', cell.notes[0])

    def test_pid_0_outside_start_kernel_is_red(self):
        # Interrupts and idle tasks allocate as pid 0 too: only the boot
        # CPU's start_kernel() is early boot.
        for old, new in (('comm "swapper/0", pid 0,', 'comm "softirq", pid 0,'),
                         ('start_kernel+', 'rest_init+')):
            log = fixture('kmemleak', 'test.log').replace(old, new, 1)
            self.put_kmemleak('00-baseline', SHA0, log=log)
            cell = self.cell('00-baseline', SHA0)
            self.assertEqual(len(cell.problems), 1, (new, cell.problems))
            self.assertIn('7 leak(s) allocated in early boot', cell.notes[0])
            shutil.rmtree(os.path.join(self.results, '00-baseline'))

    def test_scan_that_did_not_finish_is_red(self):
        log = fixture('kmemleak', 'test.log').replace('kmemleak-init: done:', 'kmemleak-init:')
        self.put_kmemleak('00-baseline', SHA0, log=log)
        self.assertIn('kmemleak: the scan after the suites did not finish '
                      '(no "kmemleak-init: done")', self.cell('00-baseline', SHA0).problems)

    def test_scan_error_and_disabled_kmemleak_are_red(self):
        log = fixture('kmemleak', 'test.log').replace(
            'kmemleak-init: start\n',
            'kmemleak-init: start\nkmemleak: Kernel memory leak detector disabled\n'
            'kmemleak-init: error: cannot scan (kmemleak off or disabled?)\n', 1)
        self.put_kmemleak('00-baseline', SHA0, log=log)
        problems = self.cell('00-baseline', SHA0).problems
        self.assertEqual(problems, [
            'kmemleak: kmemleak-init: error: cannot scan (kmemleak off or disabled?)',
            'kmemleak: kmemleak: Kernel memory leak detector disabled'])

    def test_plain_cell_is_not_asked_for_a_scan(self):
        self.put('00-baseline', SHA0)
        self.assertEqual(self.cell('00-baseline', SHA0).problems, [])

    def test_sanitizer_reports_are_splats(self):
        for line in ('UBSAN: shift-out-of-bounds in kernel/sched/core.c:1:2',
                     'BUG: KASAN: use-after-free in foo+0x1/0x2',
                     'WARNING: CPU: 0 PID: 1 at lib/debugobjects.c:505 debug_print_object'):
            self.assertTrue(report.SPLAT.search(line), line)


class SameAsPlainTest(ReportTestCase):
    """A debug cell judged against the plain cell at the same step."""

    def setUp(self):
        super().setUp()
        self.plain = os.path.join(self.dir, 'plain')

    def put_plain(self, step, sha, name='pass'):
        """A plain cell's result, as run-cell.sh leaves it, under plain/."""
        results, self.results = self.results, self.plain
        try:
            self.put(step, sha, name)
        finally:
            self.results = results

    def judge(self):
        args = self.args()
        args.steps, args.same_as = STEP1, self.plain
        return report.judge(args, [CELL])

    def test_same_as_plain_without_own_baseline_is_green(self):
        self.put(STEP1, SHA1)
        self.put_plain(STEP1, SHA1)
        data = self.judge()
        self.assertEqual(data['verdict'], 'GREEN', data['problems'])
        self.assertEqual(data['grid'][STEP1][CELL['name']]['status'], report.SAME)

    def test_red_plain_cell_or_difference_is_red(self):
        # A red plain cell is no reference.
        self.put(STEP1, SHA1)
        self.put_plain(STEP1, SHA1, 'fail')
        data = self.judge()
        self.assertEqual(data['verdict'], 'RED')
        self.assertEqual(data['grid'][STEP1][CELL['name']]['status'], report.DIFFERS)
        self.assertIn(f'{STEP1} x86_64-smp: the plain cell\'s result in {self.plain} is not a '
                      'green, fresh one (sched_dl_checkparam: FAIL): run scripts/matrix.sh '
                      f'--cells x86_64-smp --steps {STEP1}', data['problems'])
        # A green plain cell whose results differ: each difference named.
        shutil.rmtree(os.path.join(self.results, STEP1))
        self.put(STEP1, SHA1, 'fail')
        shutil.rmtree(os.path.join(self.plain, STEP1))
        self.put_plain(STEP1, SHA1)
        data = self.judge()
        self.assertEqual(data['grid'][STEP1][CELL['name']]['status'], report.DIFFERS)
        self.assertIn(f'{STEP1} x86_64-smp: differs from the plain cell: changed: '
                      'sched_dl_checkparam.checkparam_rules.runtime 1024, 1 << DL_SCALE: '
                      'PASS -> FAIL', data['problems'])

    def test_no_plain_result_or_another_commit_is_red(self):
        self.put(STEP1, SHA1)
        data = self.judge()
        self.assertEqual(data['verdict'], 'RED')
        self.assertTrue(any('no result of the plain cell' in p for p in data['problems']))
        self.put_plain(STEP1, SHA0)
        data = self.judge()
        self.assertTrue(any('is not a green, fresh one (stale: ran aaaaaaaaaaaa' in p
                            for p in data['problems']), data['problems'])

    def test_plain_result_that_is_red_is_no_reference(self):
        self.put(STEP1, SHA1)
        self.put_plain(STEP1, SHA1, 'crash')
        data = self.judge()
        self.assertEqual(data['verdict'], 'RED')
        self.assertTrue(any('is not a green, fresh one (QEMU timed out)' in p
                            for p in data['problems']), data['problems'])


class FlakesTest(unittest.TestCase):
    """scripts/flakes.py on repeat folders made of real logs."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        with open(os.path.join(self.dir, 'meta'), 'w', encoding='utf-8') as f:
            f.write(f'cell=x86_64-smp\nstep={STEP1}\nsha={SHA1}\ncount=3\ncpus=4\n')
        self.parser = report.load_parser(TREE)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_(self, variant, i, name='pass', cpus='4', booted='4', log=None, **meta):
        d = os.path.join(self.dir, variant, f'{i:03d}')
        os.makedirs(d)
        log = fixture(name, 'test.log') if log is None else log
        with open(os.path.join(d, 'test.log'), 'w', encoding='utf-8') as f:
            f.write(log)
        fields = {'variant': variant, 'cpus': cpus, 'load': 'n', 'exec_rc': '0',
                  'timed_out': 'n', 'booted_cpus': booted, 'seconds': '7',
                  'complete': 'y', **meta}
        with open(os.path.join(d, 'meta'), 'w', encoding='utf-8') as f:
            f.write(''.join(f'{k}={v}\n' for k, v in fields.items()))

    def test_missing_runs_fail(self):
        self.run_('cpus4', 1)
        self.run_('cpus4', 2)
        data = flakes.judge(self.parser, self.dir)
        self.assertEqual(data['verdict'], 'RED')
        self.assertIn('cpus4: 2 run(s), 3 asked for', data['variants']['cpus4']['failed'])

    def test_steady_runs_are_green(self):
        for i in (1, 2, 3):
            self.run_('cpus4', i)
            self.run_('cpus2', i, cpus='2', booted='2')
        data = flakes.judge(self.parser, self.dir)
        self.assertEqual(data['verdict'], 'GREEN', data)
        self.assertEqual(data['totals'], {'runs': 6, 'flaky_cases': 0, 'failed': 0})
        self.assertEqual(list(data['variants']), ['cpus4', 'cpus2'])

    def test_a_run_that_differs_is_a_flake_and_a_failed_run(self):
        self.run_('cpus4', 1)
        self.run_('cpus4', 2, 'fail', exec_rc='1')
        self.run_('cpus4', 3)
        data = flakes.judge(self.parser, self.dir)
        self.assertEqual(data['verdict'], 'RED')
        case = 'sched_dl_checkparam.checkparam_rules.runtime 1024, 1 << DL_SCALE'
        self.assertEqual(data['variants']['cpus4']['flaky'][case], 1)
        self.assertIn(f'cpus4/002: {case}: FAIL', data['variants']['cpus4']['failed'])
        self.assertIn(f'flaky: {case}: differs from the first run in 1 run(s)',
                      flakes.render(data))

    def test_wrong_cpu_count_timeout_and_splat_fail_a_run(self):
        log = fixture('pass', 'test.log').replace(
            'KTAP version 1\n', 'KTAP version 1\nUBSAN: shift-out-of-bounds in x.c:1:2\n', 1)
        self.run_('cpus8', 1, cpus='8', booted='4')
        self.run_('cpus8', 2, cpus='8', booted='8', timed_out='y')
        self.run_('cpus8', 3, cpus='8', booted='8', log=log)
        failed = flakes.judge(self.parser, self.dir)['variants']['cpus8']['failed']
        self.assertIn('cpus8/001: 4 CPU(s) up, 8 asked for', failed)
        self.assertIn('cpus8/002: QEMU timed out', failed)
        self.assertTrue(any(p.startswith('cpus8/003: kernel splat: 1 line(s)') for p in failed))

    def test_variants_may_differ_without_being_flakes(self):
        skip = fixture('pass', 'test.log').replace(
            'ok 2 bw_alloc\n', 'ok 2 bw_alloc # SKIP needs 4 CPUs\n', 1)
        self.assertTrue(skip != fixture('pass', 'test.log'), 'the fixture changed')
        for i in (1, 2, 3):
            self.run_('cpus4', i)
        for i in (1, 2, 3):
            self.run_('cpus2', i, cpus='2', booted='2', log=skip)
        data = flakes.judge(self.parser, self.dir)
        self.assertEqual(data['totals']['flaky_cases'], 0)
        self.assertEqual(len(data['cross']['cpus2']), 1, data['cross'])
        self.assertEqual(data['verdict'], 'GREEN')

    def test_main_writes_the_summaries(self):
        for i in (1, 2, 3):
            self.run_('cpus4', i)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            self.assertEqual(flakes.main(['--tree', TREE, self.dir]), 0)
            self.assertEqual(flakes.main(['--tree', TREE, os.path.join(self.dir, 'none')]), 2)
        with open(os.path.join(self.dir, 'summary.json'), encoding='utf-8') as f:
            self.assertEqual(json.load(f)['verdict'], 'GREEN')
        # It prints the summary's first line, the verdict.
        with open(os.path.join(self.dir, 'summary.txt'), encoding='utf-8') as f:
            self.assertEqual(out.getvalue(), f.readline())
        self.assertIn('No such file or directory', err.getvalue())


class ReliabilitySectionTest(ReportTestCase):
    """What the main report says of repeats and debug cells."""

    def setUp(self):
        super().setUp()
        self.debug_root = os.path.join(self.dir, 'debug')
        self.put('00-baseline', SHA0)
        self.put(STEP1, SHA1)

    def args(self):
        args = super().args()
        args.debug_root = self.debug_root
        return args

    def put_repeat(self, sha, verdict='GREEN'):
        d = os.path.join(self.results, 'repeat', CELL['name'])
        os.makedirs(d, exist_ok=True)
        summary = {'cell': CELL['name'], 'step': STEP1, 'sha': sha, 'count': 5,
                   'verdict': verdict, 'line': f'x86_64-smp at {STEP1}: {verdict}: ...',
                   'totals': {'runs': 5, 'flaky_cases': 0, 'failed': 0}, 'cross': {},
                   'variants': {'cpus4': {'runs': 5, 'cpus': '4', 'load': 'n',
                                          'seconds': [7, 9], 'flaky': {}, 'failed': []}}}
        with open(os.path.join(d, 'summary.json'), 'w', encoding='utf-8') as f:
            json.dump(summary, f)
        inputs = matrix.inputs(matrix.select(matrix.load(), CELL['name'])[0])
        with open(os.path.join(d, 'meta'), 'w', encoding='utf-8') as f:
            f.write(f'sha={sha}\n' + ''.join(f'input_{k}={v}\n' for k, v in inputs.items()))

    def judge(self, **kw):
        args = self.args()
        for k, v in kw.items():
            setattr(args, k, v)
        return report.judge(args, [CELL])

    def test_nothing_run_nothing_asked_is_green(self):
        data = self.judge()
        self.assertEqual(data['verdict'], 'GREEN', data['problems'])
        text = report.render_markdown(data)
        self.assertIn('No repeats (scripts/repeat.sh).', text)
        self.assertIn('| x86_64-smp-sanitize | x86_64-smp | NOT RUN |', text)

    def test_asked_for_and_missing_is_red(self):
        data = self.judge(repeat_cells='x86_64-smp', debug_cells='x86_64-smp-sanitize')
        self.assertEqual(data['verdict'], 'RED')
        self.assertIn('repeat x86_64-smp: not run: no summary', data['problems'])
        self.assertIn('debug cell x86_64-smp-sanitize: not run: no report', data['problems'])

    def test_repeats_green_red_and_stale(self):
        self.put_repeat(SHA1)
        data = self.judge(repeat_cells='x86_64-smp')
        self.assertEqual(data['reliability']['repeat']['x86_64-smp']['status'], 'green')
        self.assertEqual(data['verdict'], 'GREEN', data['problems'])
        self.assertIn(f'`scripts/repeat.sh --cells x86_64-smp --step {STEP1} --count 5`',
                      report.render_markdown(data))
        self.put_repeat(SHA1, 'RED')
        self.assertEqual(self.judge(repeat_cells='x86_64-smp')['verdict'], 'RED')
        self.put_repeat(SHA0)
        data = self.judge()
        self.assertEqual(data['reliability']['repeat']['x86_64-smp']['status'], report.STALE)
        self.assertEqual(data['verdict'], 'GREEN', 'not asked for: shown, not counted')

    def test_debug_report_is_read(self):
        d = os.path.join(self.debug_root, 'x86_64-smp-sanitize', 'linux-source-6.1')
        os.makedirs(d)
        rep = {'verdict': 'GREEN', 'steps': [{'name': STEP1, 'sha': SHA1}],
               'grid': {STEP1: {'x86_64-smp': {'judged': True}}}, 'problems': [],
               'notes': ['01-move x86_64-smp: kmemleak: 8 leak(s) allocated in early boot']}
        with open(os.path.join(d, 'report.json'), 'w', encoding='utf-8') as f:
            json.dump(rep, f)
        # At the last step, the self-check must be there and green.
        data = self.judge(debug_cells='x86_64-smp-sanitize')
        e = data['reliability']['debug']['x86_64-smp-sanitize']
        self.assertEqual(e['status'], 'red')
        self.assertIn('the self-check did not see every planted bug reported: not run',
                      e['problems'][0])
        sc = os.path.join(self.debug_root, 'x86_64-smp-sanitize', 'selfcheck')
        os.makedirs(sc)
        with open(os.path.join(os.path.dirname(HERE), 'debug-selfcheck.c'), 'rb') as f:
            planted = matrix.digest(f.read())
        with open(os.path.join(sc, 'meta'), 'w', encoding='utf-8') as f:
            f.write(f'step={STEP1}\nsha={SHA1}\nsource_sha256={planted}\n')
        with open(os.path.join(sc, 'verdict'), 'w', encoding='utf-8') as f:
            f.write('x86_64-smp-sanitize selfcheck: selfcheck: RED: 4 of 5 caught, missed: '
                    'KASAN (kunit.py exec exit 0)\n')
        data = self.judge(debug_cells='x86_64-smp-sanitize')
        self.assertEqual(data['reliability']['debug']['x86_64-smp-sanitize']['status'], 'red')
        with open(os.path.join(sc, 'verdict'), 'w', encoding='utf-8') as f:
            f.write('x86_64-smp-sanitize selfcheck: selfcheck: GREEN: 5 of 5 caught '
                    '(kunit.py exec exit 0)\n')
        data = self.judge(debug_cells='x86_64-smp-sanitize')
        e = data['reliability']['debug']['x86_64-smp-sanitize']
        self.assertEqual(e['status'], 'green')
        self.assertIn('; selfcheck: selfcheck: GREEN: 5 of 5 caught', report.render_markdown(data))
        # A result made with other inputs than the debug cell's current ones.
        cell_dir = os.path.join(d, STEP1, 'x86_64-smp')
        os.makedirs(cell_dir)
        want = report.debug_inputs(matrix.select(matrix.load(), 'x86_64-smp-sanitize',
                                                 'debug')[0],
                                   matrix.select(matrix.load(), 'x86_64-smp')[0])
        meta = ''.join(f'input_{k}={v}\n' for k, v in want.items())
        with open(os.path.join(cell_dir, 'meta'), 'w', encoding='utf-8') as f:
            f.write(meta)
        self.assertEqual(self.judge()['reliability']['debug']['x86_64-smp-sanitize']['status'],
                         'green')
        with open(os.path.join(cell_dir, 'meta'), 'w', encoding='utf-8') as f:
            f.write(meta.replace('input_debug=sanitize', 'input_debug=other'))
        e = self.judge()['reliability']['debug']['x86_64-smp-sanitize']
        self.assertEqual(e['status'], report.STALE)
        self.assertIn('debug was "other", is "sanitize"', e['why'][0])
        self.assertEqual(e['line'], f'GREEN: 1 cell step(s) judged ({STEP1} to {STEP1}), '
                                    '0 problem(s)')
        self.assertIn('noted, not counted: 01-move x86_64-smp: kmemleak: 8 leak(s)',
                      report.render_markdown(data))
        rep['steps'][0]['sha'] = SHA0
        with open(os.path.join(d, 'report.json'), 'w', encoding='utf-8') as f:
            json.dump(rep, f)
        data = self.judge(debug_cells='x86_64-smp-sanitize')
        self.assertEqual(data['reliability']['debug']['x86_64-smp-sanitize']['status'],
                         report.STALE)
        self.assertEqual(data['verdict'], 'RED')


class SelfcheckTest(unittest.TestCase):
    """scripts/selfcheck.py: every planted bug must show in the console."""

    PLANTED = ('UBSAN: shift-out-of-bounds in kernel/sched/debug_selfcheck.c:35:2\n'
               'ODEBUG: init active (active state 0) object type: timer_list hint: '
               'selfcheck_timer_fn+0x0/0x10\n'
               'WARNING: CPU: 1 PID: 60 at lib/debugobjects.c:505 debug_print_object+0xa/0xb\n'
               'BUG: KASAN: use-after-free in debug_selfcheck_planted+0x1/0x2\n')
    LEAK = ('unreferenced object 0xffff888001e4e700 (size 128):\n'
            '  comm "kunit_try_catch", pid 60, jiffies 4294893000\n'
            '  backtrace:\n'
            '    [<(____ptrval____)>] __kmalloc+0x1/0x2\n'
            '    [<(____ptrval____)>] debug_selfcheck_planted+0x3/0x4\n')

    def log(self, planted=PLANTED, leak=LEAK):
        log = fixture('kmemleak', 'test.log')
        log = log.replace('kmemleak-init: start\n', planted + 'kmemleak-init: start\n', 1)
        return log.replace('kmemleak-init: done:', leak + 'kmemleak-init: done:', 1).splitlines(True)

    def test_everything_caught(self):
        results = selfcheck.judge(self.log())
        self.assertEqual([(n, c) for n, c, _ in results],
                         [('UBSAN', True), ('debug objects', True), ('KASAN', True),
                          ('kmemleak', True), ('report', True)])

    def test_each_missing_report_is_missed(self):
        lines = self.PLANTED.splitlines(True)
        for i, name in ((0, 'UBSAN'), (1, 'debug objects'), (3, 'KASAN')):
            planted = ''.join(x for j, x in enumerate(lines) if j != i)
            caught = {n: c for n, c, _ in selfcheck.judge(self.log(planted))}
            self.assertFalse(caught[name], name)
        # A leak of someone else, or one counted as early boot, is not it.
        for leak in (self.LEAK.replace('debug_selfcheck_planted', 'other_function'),
                     self.LEAK.replace('(size 128)', '(size 64)'),
                     self.LEAK.replace('"kunit_try_catch", pid 60', '"swapper/0", pid 0')
                     .replace('__kmalloc', 'start_kernel')):
            caught = {n: c for n, c, _ in selfcheck.judge(self.log(leak=leak))}
            self.assertFalse(caught['kmemleak'], leak)
        # ODEBUG's line without its WARNING would not make the report red.
        planted = self.PLANTED.replace('WARNING: CPU: 1 PID: 60 at lib/debugobjects.c:505 '
                                       'debug_print_object+0xa/0xb\n', '')
        caught = {n: c for n, c, _ in selfcheck.judge(self.log(planted))}
        self.assertTrue(caught['debug objects'])
        self.assertFalse(caught['report'])

    def test_main(self):
        d = tempfile.mkdtemp()
        try:
            path = os.path.join(d, 'test.log')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(''.join(self.log()))
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                self.assertEqual(selfcheck.main([path]), 0)
                with open(path, 'w', encoding='utf-8') as f:
                    f.write(fixture('kmemleak', 'test.log'))
                self.assertEqual(selfcheck.main([path]), 1)
                self.assertEqual(selfcheck.main([os.path.join(d, 'none')]), 2)
            self.assertIn('selfcheck: GREEN: 5 of 5 caught', out.getvalue())
            self.assertIn('selfcheck: RED: 0 of 5 caught', out.getvalue())
            self.assertIn('No such file or directory', err.getvalue())
        finally:
            shutil.rmtree(d)


class DebugEnvTest(unittest.TestCase):
    """matrix.debug_env(): what scripts/debug-cells.sh and report.py share."""

    def test_project_debug_cells(self):
        data = matrix.load()
        env = matrix.debug_env(matrix.select(data, 'arm-up-sanitize', 'debug')[0])
        self.assertEqual(env['SCHED_TINIFY_DEBUG'], 'sanitize')
        self.assertEqual(env['SCHED_TINIFY_KMEMLEAK'], 'ttyAMA0')
        self.assertIn('UBSAN_SANITIZE_core.o=y', env['SCHED_TINIFY_MAKE_ADD'].split())
        opts = env['SCHED_TINIFY_KCONFIG_ADD'].split()
        self.assertIn('CONFIG_KASAN=y', opts)
        self.assertIn('CONFIG_DEBUG_KMEMLEAK_AUTO_SCAN=n', opts)
        self.assertFalse([o for o in opts if not o.startswith('CONFIG_')], opts)
        env = matrix.debug_env(matrix.select(data, 'x86_64-smp-sanitize', 'debug')[0])
        self.assertEqual(env['SCHED_TINIFY_MAKE_ADD'], '')

    def test_fragment_without_options(self):
        d = tempfile.mkdtemp()
        try:
            with open(os.path.join(d, 'frag'), 'w', encoding='utf-8') as f:
                f.write('# only a comment\n')
            entry = {'name': 'c-x', 'cell': 'c', 'kconfig': 'frag', 'console': 'ttyS0',
                     'kmemleak': False}
            with self.assertRaises(matrix.MatrixError):
                matrix.debug_env(entry, root=d)
            with self.assertRaises(matrix.MatrixError):
                matrix.debug_env(dict(entry, kconfig='none'), root=d)
        finally:
            shutil.rmtree(d)


if __name__ == '__main__':
    unittest.main()
