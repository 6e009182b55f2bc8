# SPDX-License-Identifier: GPL-2.0
"""Tests of the tiny cells: their matrix entries, scripts/tiny.py's
judgement against an expected file, and report.py's tiny section."""

import contextlib
import io
import os
import shutil
import tempfile
import unittest

import matrix
import report
import tiny
from tests.test_report import CELL, SHA0, SHA1, TREE, NO_TREE, ReportTestCase, fixture

TINY = dict(CELL, name='arm-tiny', smp=False, cpus=1, qemu_args='',
            needs='SCHED_CLASS_DL', expected='kunitconfigs/tiny/arm-tiny.expected')


class TinyMatrixTest(unittest.TestCase):

    def base(self):
        return {'trees': {'p': {'patches': 'patches', 'version': '1'}},
                'cells': [CELL], 'tiny': [dict(TINY)]}

    def test_good(self):
        data = matrix.validate(self.base())
        self.assertEqual([c['name'] for c in matrix.select(data, '', 'tiny')], ['arm-tiny'])
        # Not a cell of the matrix, but a cell wherever one is named.
        self.assertEqual([c['name'] for c in matrix.select(data)], ['x86_64-smp'])
        self.assertEqual(matrix.field(data, 'arm-tiny', 'needs'), 'SCHED_CLASS_DL')

    def test_rejects(self):
        for change in ({'smp': True, 'cpus': 4, 'qemu_args': '-smp 4'},
                       {'cpus': 2}, {'needs': 1}, {'expected': None}):
            data = self.base()
            data['tiny'][0].update(change)
            with self.subTest(change=change), self.assertRaises(matrix.MatrixError):
                matrix.validate(data)
        data = self.base()
        del data['tiny'][0]['expected']
        with self.assertRaises(matrix.MatrixError):
            matrix.validate(data)
        data = self.base()
        data['tiny'][0]['name'] = 'x86_64-smp'
        with self.assertRaises(matrix.MatrixError):
            matrix.validate(data)

    def test_project_tiny_cells(self):
        root = os.path.join(os.path.dirname(matrix.MATRIX), '..')
        for cell in matrix.load().get('tiny', []):
            with self.subTest(cell=cell['name']):
                tiny.read_expected(os.path.join(root, cell['expected']))
                with open(os.path.join(root, cell['kunitconfig']), encoding='utf-8') as f:
                    lines = f.read().splitlines()
                self.assertIn(f'# CONFIG_{cell["needs"]} is not set', lines)
                self.assertIn('CONFIG_EXPERT=y', lines)
                self.assertNotIn('CONFIG_SMP=y', lines)

    def test_expected_inputs(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'kunitconfigs', 'tiny'))
            for name in (TINY['kunitconfig'], TINY['expected']):
                with open(os.path.join(d, name), 'w', encoding='utf-8') as f:
                    f.write('x\tPASS\n')
            one = matrix.inputs(TINY, 'cells', {}, d)
            with open(os.path.join(d, TINY['expected']), 'w', encoding='utf-8') as f:
                f.write('x\tSKIP\tno\n')
            self.assertNotEqual(one['expected_sha256'],
                                matrix.inputs(TINY, 'cells', {}, d)['expected_sha256'])


class ReadExpectedTest(unittest.TestCase):

    def read(self, text):
        with tempfile.NamedTemporaryFile('w', suffix='.expected') as f:
            f.write(text)
            f.flush()
            return tiny.read_expected(f.name)

    def test_good(self):
        got = self.read('# comment\n\na\tPASS\nb\tSKIP\tno SMP\n')
        self.assertEqual(got, {'a': ('PASS', ''), 'b': ('SKIP', 'no SMP')})

    def test_bad(self):
        for text in ('a PASS\n', 'a\tMAYBE\n', 'a\tPASS\na\tPASS\n', '# nothing\n',
                     'a\tPASS\tx\ty\n'):
            with self.subTest(text=text), self.assertRaises(ValueError):
                self.read(text)


class TinyJudgeTest(ReportTestCase):
    """scripts/tiny.py on a run laid out as run-cell.sh lays it out."""

    def setUp(self):
        super().setUp()
        if not os.path.isfile(os.path.join(TREE, 'tools', 'testing', 'kunit',
                                           'kunit_parser.py')):
            self.skipTest(NO_TREE)
        self.put('01-move', SHA1)
        # The fixture sits in the CELL folder: move it to the tiny cell's.
        self.d = os.path.join(self.results, '01-move', 'arm-tiny')
        shutil.move(os.path.join(self.results, '01-move', CELL['name']), self.d)
        parser = report.load_parser(TREE)
        results, _, _ = report.normalize(parser, fixture('pass', 'test.log').splitlines(True))
        self.expected = os.path.join(self.dir, 'expected')
        self.write_expected(report.results_lines(results) + [f'{tiny.NO_SPLAT}\tPASS'])

    def write_expected(self, lines):
        with open(self.expected, 'w', encoding='utf-8') as f:
            f.write(''.join(line + '\n' for line in lines))

    def judge(self, sha=SHA1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            rc = tiny.main(['judge', '--tree', TREE, '--dir', self.d,
                            '--expected', self.expected, '--sha', sha])
        # It prints the verdict it writes.
        self.assertEqual(printed.getvalue(), self.verdict())
        return rc

    def verdict(self):
        with open(os.path.join(self.d, 'verdict'), encoding='utf-8') as f:
            return f.read()

    def test_as_expected_is_green(self):
        self.assertEqual(self.judge(), 0)
        self.assertIn(': GREEN: as expected', self.verdict())
        self.assertTrue(os.path.isfile(os.path.join(self.d, 'results.txt')))

    def test_a_difference_is_red(self):
        with open(self.expected, encoding='utf-8') as f:
            lines = f.read().splitlines()
        self.write_expected(lines[:-1] + ['sched_dl_absent.new_case\tPASS'])
        self.assertEqual(self.judge(), 1)
        text = self.verdict()
        self.assertIn(': RED: ', text)
        self.assertIn('missing: sched_dl_absent.new_case (expected PASS)', text)

    def test_other_commit_is_red(self):
        self.assertEqual(self.judge(sha=SHA0), 1)
        self.assertIn('stale', self.verdict())

    def test_report_section(self):
        self.assertEqual(self.judge(), 0)
        d0 = os.path.join(self.results, '00-baseline', 'arm-tiny')
        os.makedirs(d0)
        with open(os.path.join(d0, 'meta'), 'w', encoding='utf-8') as f:
            f.write(f'step=00-baseline\nsha={SHA0}\nna=no config SCHED_CLASS_DL\ncomplete=y\n')
        with open(os.path.join(d0, 'verdict'), 'w', encoding='utf-8') as f:
            f.write('00-baseline arm-tiny: n/a: the step has no config SCHED_CLASS_DL\n')
        self.put('00-baseline', SHA0)
        args = self.args()
        args.tiny = 'arm-tiny'
        args.steps = '00-baseline'
        data = report.judge(args, [CELL])
        self.assertEqual(data['tiny']['arm-tiny']['00-baseline']['status'], 'n/a')
        # A tiny cell that did not run at a step of the run makes it red.
        args.steps = ''
        shutil.rmtree(self.d)
        data = report.judge(args, [CELL])
        self.assertEqual(data['tiny']['arm-tiny']['01-move']['status'], 'not run')
        self.assertEqual(data['verdict'], 'RED')
        self.assertIn('## Tiny cells', report.render_markdown(data))
        # Unless a plan left that step to the main job (and named it).
        data = report.judge(args, [CELL], plan={'cells': {CELL['name']: ['00-baseline']},
                                                  'tiny': {'arm-tiny': ['00-baseline']}})
        self.assertEqual(data['tiny']['arm-tiny']['01-move']['status'], report.LEFT)
        self.assertEqual(data['problems'], [])
        self.assertEqual(data['verdict'], 'GREEN')
        self.assertIn('01-move arm-tiny', data['left'])

    def test_other_inputs_are_stale(self):
        # A verdict made against another expected file (or kunitconfig)
        # does not stand: the commit alone does not say the result is fresh.
        self.assertEqual(self.judge(), 0)
        with open(os.path.join(self.d, 'meta'), 'a', encoding='utf-8') as f:
            f.write('input_expected_sha256=old\n')
        self.put('00-baseline', SHA0)
        args = self.args()
        args.tiny = 'arm-tiny'
        args.steps = '01-move'
        data = report.judge(args, [CELL], inputs=lambda kind, name: {'expected_sha256': 'old'})
        self.assertEqual(data['tiny']['arm-tiny']['01-move']['status'], 'green')
        data = report.judge(args, [CELL], inputs=lambda kind, name: {'expected_sha256': 'new'})
        self.assertEqual(data['tiny']['arm-tiny']['01-move']['status'], 'stale')
        self.assertEqual(data['verdict'], 'RED')


if __name__ == '__main__':
    unittest.main()


class ConsoleTest(unittest.TestCase):
    """The console's results: splats and the lines boot self-tests print."""

    def results(self, log, expected):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'test.log'), 'w', encoding='utf-8') as f:
                f.write(log)
            return tiny.console_results(d, dict.fromkeys(expected, ('PASS', '')))

    def test_has_lacks_and_splat(self):
        log = ('[    0.5] Testing tracer wakeup_rt: PASSED\n'
               '[    0.9] All ww mutex selftests passed\n')
        want = ['console has: Testing tracer wakeup_rt: PASSED',
                'console has: Testing tracer wakeup: PASSED',
                'console lacks: Testing tracer wakeup_dl',
                'console lacks: All ww mutex', 'sched_dl_absent']
        self.assertEqual(self.results(log, want), {
            tiny.NO_SPLAT: ('PASS', ''), want[0]: ('PASS', ''), want[1]: ('FAIL', ''),
            want[2]: ('PASS', ''), want[3]: ('FAIL', '')})
        got = self.results(log + '[    1.0] WARNING: CPU: 0 PID: 1 at kernel/x.c:1\n', [])
        self.assertEqual(got, {tiny.NO_SPLAT: ('FAIL', '')})

    def test_no_console_log(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(tiny.console_results(d, {}), {})


class TinyMutantsTest(unittest.TestCase):
    """tiny.py mutants: killed when a mutant step's results differ from the
    expected ones, survived when not, invalid without a fresh run; nothing
    is judged unless the control step is as expected."""

    EXPECTED = {'s': ('PASS', ''), 's.a': ('PASS', ''), 's.b': ('PASS', '')}
    GOOD = {'s': 'PASS', 's.a': 'PASS', 's.b': 'PASS'}
    SHAS = {'00-baseline': 'b0', '08-last': 'c8', '09-m1': 'a9', '11-m2': 'a11',
            '13-m3': 'a13'}

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()  # pylint: disable=consider-using-with
        self.steps_file = os.path.join(self.tmp.name, 'steps')
        with open(self.steps_file, 'w', encoding='utf-8') as f:
            f.write(''.join(f'{n} {s}\n' for n, s in self.SHAS.items()))

    def tearDown(self):
        self.tmp.cleanup()

    def step(self, name, results=None, complete=True, sha=None):
        d = os.path.join(self.tmp.name, name, 'arm-tiny')
        os.makedirs(d)
        with open(os.path.join(d, 'meta'), 'w', encoding='utf-8') as f:
            f.write(f'sha={sha or self.SHAS[name]}\n' + ('complete=y\n' if complete else ''))
        if results is not None:
            with open(os.path.join(d, 'results.txt'), 'w', encoding='utf-8') as f:
                f.write(''.join(f'{p}\t{s}\n' for p, s in results.items()))

    def mutant(self, name, survive=False):
        path = os.path.join(self.tmp.name, name + '.sed')
        with open(path, 'w', encoding='utf-8') as f:
            f.write('# file: kernel/sched/core.c\n# tiny: SCHED_CLASS_DL\n')
            if survive:
                f.write('# expect: survive: the case cannot see it\n')
        return path

    def test_killed_survived_invalid(self):
        self.step('09-m1', {'s': 'FAIL', 's.a': 'FAIL', 's.b': 'PASS'})
        self.step('11-m2', self.GOOD)
        self.step('13-m3', complete=False)
        pairs = [f'09-m1={self.mutant("m1")}', f'11-m2={self.mutant("m2", survive=True)}',
                 f'13-m3={self.mutant("m3")}']
        rows, good = tiny.judge_mutants(self.tmp.name, 'arm-tiny', self.EXPECTED, pairs,
                                        self.SHAS)
        self.assertEqual([r[2]['arm-tiny'] for r in rows],
                         ['killed', 'survived', 'invalid (did not build, run, or is stale)'])
        self.assertIn('changed: s.a: PASS -> FAIL', rows[0][3])
        self.assertFalse(good)
        rows, good = tiny.judge_mutants(self.tmp.name, 'arm-tiny', self.EXPECTED, pairs[:2],
                                        self.SHAS)
        self.assertTrue(good)

    def test_stale_run_is_invalid(self):
        self.step('09-m1', {'s': 'FAIL', 's.a': 'FAIL', 's.b': 'PASS'}, sha='old')
        rows, good = tiny.judge_mutants(self.tmp.name, 'arm-tiny', self.EXPECTED,
                                        [f'09-m1={self.mutant("m1")}'], self.SHAS)
        self.assertEqual(rows[0][2], {'arm-tiny': 'invalid (did not build, run, or is stale)'})
        self.assertFalse(good)

    def test_survivor_is_bad_unless_expected(self):
        self.step('09-m1', self.GOOD)
        _, good = tiny.judge_mutants(self.tmp.name, 'arm-tiny', self.EXPECTED,
                                     [f'09-m1={self.mutant("m1")}'], self.SHAS)
        self.assertFalse(good)

    def main(self):
        exp = os.path.join(self.tmp.name, 'expected')
        with open(exp, 'w', encoding='utf-8') as f:
            f.write('# comment\ns\tPASS\ns.a\tPASS\ns.b\tPASS\n')
        out = os.path.join(self.tmp.name, 'summary.md')
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            rc = tiny.main(['mutants', '--results', self.tmp.name, '--cell', 'arm-tiny',
                            '--expected', exp, '--summary', out, '--steps-file',
                            self.steps_file, '--control', '08-last',
                            f'09-m1={self.mutant("m1")}'])
        with open(out, encoding='utf-8') as f:
            text = f.read()
        # What it prints is the summary it writes.
        self.assertEqual(printed.getvalue(), text)
        return rc, text

    def test_main_writes_the_summary(self):
        self.step('08-last', self.GOOD)
        self.step('09-m1', {'s': 'FAIL', 's.a': 'FAIL', 's.b': 'PASS'})
        rc, text = self.main()
        self.assertEqual(rc, 0)
        self.assertIn('| 09-m1 | killed | killed |', text)
        self.assertIn('- arm-tiny: 1 of 1 mutant runs killed', text)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(tiny.main(['mutants', '--results', self.tmp.name]), 2)
        self.assertIn('mutants needs --results, --cell', err.getvalue())

    def test_red_control_proves_nothing(self):
        self.step('08-last', {'s': 'FAIL', 's.a': 'FAIL', 's.b': 'PASS'})
        self.step('09-m1', {'s': 'FAIL', 's.a': 'FAIL', 's.b': 'PASS'})
        rc, text = self.main()
        self.assertEqual(rc, 1)
        self.assertIn('control step 08-last is not as expected', text)


class ProjectTinyMutantsTest(unittest.TestCase):
    """Every mutant file names its file, and a tiny one the option of a tiny cell."""

    def test_mutant_files(self):
        root = os.path.join(os.path.dirname(matrix.MATRIX), '..')
        needs = {c['needs'] for c in matrix.load().get('tiny', [])}
        mdir = os.path.join(root, 'kunit', 'mutants')
        tiny_found = 0
        for sub in sorted(os.listdir(mdir)):
            if not os.path.isdir(os.path.join(mdir, sub)):
                continue
            for name in sorted(os.listdir(os.path.join(mdir, sub))):
                with open(os.path.join(mdir, sub, name), encoding='utf-8') as f:
                    lines = f.read().splitlines()
                head = lines[:next((i for i, h in enumerate(lines) if not h.startswith('#')),
                                   len(lines))]
                with self.subTest(mutant=f'{sub}/{name}'):
                    self.assertTrue(head[0].startswith('# file: '))
                    kinds = [h[len('# tiny: '):] for h in head if h.startswith('# tiny: ')]
                    self.assertTrue(set(kinds) <= needs)
                    # Every mutant names its first step (scripts/mutants.sh).
                    self.assertTrue(any(h.startswith('# step: ') for h in head))
                    # "# tiny cells:" names tiny cells: those a tiny mutant
                    # is kept to, or those a cells' mutant runs in too.
                    only = [c for h in head if h.startswith('# tiny cells: ')
                            for c in h[len('# tiny cells: '):].split()]
                    self.assertTrue(set(only) <= {c['name'] for c in
                                                  matrix.load().get('tiny', [])})
                    tiny_found += len(kinds)
        self.assertGreaterEqual(tiny_found, 4)


class AbsentSuitesTest(unittest.TestCase):
    """The report names the suites a tiny cell does not build, and why."""

    KCONFIG = ('config SCHED_CLASS_DL\n\tbool\n\tdefault y\n\n'
               'config A_KUNIT_TEST\n\tbool "Tests of A" if !KUNIT_ALL_TESTS\n'
               '\tdepends on KUNIT=y && SCHED_CLASS_DL && SYSCTL\n\tdefault KUNIT_ALL_TESTS\n\n'
               'config B_KUNIT_TEST\n\tbool "Tests of B"\n\tdepends on KUNIT=y && !SCHED_CLASS_DL\n\n'
               'config C_KUNIT_TEST\n\tbool "Tests of C"\n\tdepends on KUNIT=y && SCHED_DLX\n')

    def test_absent_suites(self):
        with tempfile.NamedTemporaryFile('w', suffix='.kunit') as f:
            f.write(self.KCONFIG)
            f.flush()
            self.assertEqual(report.absent_suites('SCHED_CLASS_DL', f.name),
                             ['A_KUNIT_TEST ("Tests of A"): depends on KUNIT=y && SCHED_CLASS_DL '
                              '&& SYSCTL'])

    def test_project_and_render(self):
        absent = report.absent_suites('SCHED_CLASS_DL')
        self.assertGreaterEqual(len(absent), 4)
        self.assertFalse(any('ABSENT' in a for a in absent))
        tiny_grid = {'arm-tiny': {'00-baseline': {'status': 'n/a', 'line': ''}}}
        lines = report.render_tiny(tiny_grid, ['00-baseline'], {'SCHED_CLASS_DL': absent})
        self.assertIn('Not built in the tiny cells that turn CONFIG_SCHED_CLASS_DL off (their '
                      'Kconfig option needs it; kunit/kernel/sched/Kconfig.kunit):', lines)
        self.assertIn(f'- {absent[0]}', lines)
