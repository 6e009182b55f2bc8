# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/report.py, on real kunit.py output.

fixtures/ holds what scripts/run-cell.sh kept from real runs (meta, the raw
console test.log, kunit.py's kunit.json); fixtures/README says where each
comes from. Some cases derive a variant from a real log (a skip, a missing
or a renamed test) and regenerate its JSON with the tree's own kunit_json,
as kunit.py would.

Needs the kernel tree's tools/testing/kunit: SCHED_TINIFY_TREE, or the
default work folder that scripts/prepare-tree.sh fills; without it every
case here is skipped, with the command that makes the tree as the reason.
"""

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

import matrix
import report

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, 'fixtures')
TREE = os.environ.get('SCHED_TINIFY_TREE') or os.path.join(
    HERE, '..', '..', 'work', 'linux-source-6.1', 'linux')
NO_TREE = (f'no kernel tree at {TREE} (its kunit_parser.py reads the fixtures): '
           'run scripts/prepare-tree.sh (scripts/test.sh does), or set SCHED_TINIFY_TREE')


def setUpModule():  # pylint: disable=invalid-name
    if not os.path.isfile(os.path.join(TREE, 'tools', 'testing', 'kunit', 'kunit_parser.py')):
        raise unittest.SkipTest(NO_TREE)

SUITE = 'sched_dl_checkparam'
CELL = {'name': 'x86_64-smp', 'arch': 'x86_64', 'cross_compile': '',
        'compiler': 'gcc', 'kunitconfig': 'kunitconfigs/x86_64-smp',
        'smp': True, 'cpus': 4, 'qemu_args': '-smp 4'}
CELL_UP = dict(CELL, name='x86_64-up', kunitconfig='kunitconfigs/x86_64-up',
               smp=False, cpus=1, qemu_args='')
SHA0 = 'a' * 40
SHA1 = 'b' * 40


def fixture(name, filename):
    with open(os.path.join(FIXTURES, name, filename), encoding='utf-8') as f:
        return f.read()


def json_of(log_text):
    """kunit.py's JSON for a console log, made by the tree's kunit_json."""
    parser = report.load_parser(TREE)
    import kunit_json  # pylint: disable=import-outside-toplevel
    test = parser.parse_run_tests(log_text.splitlines(keepends=True))
    return kunit_json.get_json_result(test, kunit_json.Metadata())


class ReportTestCase(unittest.TestCase):
    """A results folder with a baseline and one step, in one cell."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.results = os.path.join(self.dir, 'results')
        self.series = os.path.join(self.dir, 'patches')
        os.makedirs(self.series)
        with open(os.path.join(self.series, '0001-move.patch'), 'w', encoding='utf-8') as f:
            f.write('Subject: [PATCH] move\n')
        # A comment, and a last line without a newline: it counts.
        with open(os.path.join(self.series, 'series'), 'w', encoding='utf-8') as f:
            f.write('# the series\n0001-move.patch')
        self.steps_file = os.path.join(self.dir, 'steps')
        with open(self.steps_file, 'w', encoding='utf-8') as f:
            f.write(f'00-baseline {SHA0}\n01-move {SHA1}\n')

    def tearDown(self):
        shutil.rmtree(self.dir)

    def put(self, step, sha, name='pass', log=None, meta=None, kunit_json=None,
            complete=True):
        """Lay a fixture (or a variant of it) out as run-cell.sh would."""
        d = os.path.join(self.results, step, CELL['name'])
        os.makedirs(d)
        log = fixture(name, 'test.log') if log is None else log
        meta = fixture(name, 'meta') if meta is None else meta
        if kunit_json is None:
            kunit_json = fixture(name, 'kunit.json')
        meta = '\n'.join(line for line in meta.splitlines()
                         if not line.startswith('sha=')) + f'\nsha={sha}\n'
        if not complete:
            meta = meta.replace('complete=y\n', '')
        for filename, text in (('test.log', log), ('meta', meta),
                               ('kunit.json', kunit_json)):
            if text is not False:
                with open(os.path.join(d, filename), 'w', encoding='utf-8') as f:
                    f.write(text)

    def args(self):
        return argparse.Namespace(
            tree=TREE, results=self.results, steps_file=self.steps_file,
            series_dir=self.series, package='linux-source-6.1',
            package_version='6.1.192-3', kernel_version='6.1.192',
            steps='', cells='')

    def run_report(self, inputs=None, plan=None):
        """(report.md text, green), as report.py's main() makes them."""
        data = report.judge(self.args(), [CELL], inputs=inputs, plan=plan)
        return report.render_markdown(data), data['verdict'] == 'GREEN'

    def cell(self, step, sha, name='pass'):
        parser = report.load_parser(TREE)
        return report.load_cell(parser, self.results, step, CELL['name'], sha, CELL)


class RealOutputTest(ReportTestCase):

    def test_pass(self):
        self.put('00-baseline', SHA0)
        cell = self.cell('00-baseline', SHA0)
        self.assertEqual(cell.problems, [])
        self.assertEqual(cell.failures, [])
        self.assertEqual(cell.counts, {'PASS': 65, 'SKIP': 0, 'FAIL': 0, 'CRASH': 0})
        self.assertEqual(cell.results[f'{SUITE}.checkparam_rules.runtime 0'], ('PASS', ''))
        self.assertEqual(cell.results[SUITE], ('PASS', ''))

    def test_identical_steps_are_green(self):
        self.put('00-baseline', SHA0)
        self.put('01-move', SHA1)
        text, green = self.run_report()
        self.assertTrue(green, text)
        self.assertIn('65/0/0/0', text)
        self.assertIn(' same |', text)
        self.assertIn('## Verdict: GREEN', text)
        self.assertEqual(text.splitlines()[-1], 'kunit: 130 passed, 0 failed, 0 skipped')
        self.assertIn('6.1.192 (Debian package linux-source-6.1 6.1.192-3)', text)

    def test_fail_is_red_and_named(self):
        self.put('00-baseline', SHA0)
        self.put('01-move', SHA1, 'fail')
        text, green = self.run_report()
        self.assertFalse(green)
        self.assertIn(f'01-move x86_64-smp: {SUITE}.checkparam_rules.'
                      'runtime 1024, 1 << DL_SCALE: FAIL', text)
        self.assertIn(f'changed: {SUITE}.checkparam_rules.runtime 1024, '
                      '1 << DL_SCALE: PASS -> FAIL', text)
        self.assertIn('**DIFFERS**', text)

    def test_crash_is_red(self):
        self.put('00-baseline', SHA0)
        self.put('01-move', SHA1, 'crash')
        text, green = self.run_report()
        self.assertFalse(green)
        cell = self.cell('01-move', SHA1)
        self.assertIn('QEMU timed out', cell.problems)
        splat = [p for p in cell.problems if p.startswith('kernel splat: ')]
        self.assertEqual(len(splat), 1, cell.problems)
        self.assertIn('kernel BUG at ../../linux/kernel/sched/deadline.c:2974!', splat[0])
        self.assertIn(f'{SUITE}.checkparam_rules', [p for p, (s, _) in cell.results.items()
                                                     if s == 'CRASH'])
        self.assertIn('**RED** ', text)
        self.assertTrue(any(s == 'CRASH' for s, _ in cell.results.values()), cell.results)
        self.assertIn('missing: ', text)

    def test_skip_with_reason(self):
        d = os.path.join(self.results, '00-baseline', CELL_UP['name'])
        os.makedirs(d)
        for filename in ('meta', 'test.log', 'kunit.json'):
            shutil.copy(os.path.join(FIXTURES, 'skip-up', filename), d)
        parser = report.load_parser(TREE)
        cell = report.load_cell(parser, self.results, '00-baseline', CELL_UP['name'],
                                None, CELL_UP)
        self.assertEqual(cell.problems, [])
        self.assertEqual(cell.counts, {'PASS': 60, 'SKIP': 5, 'FAIL': 0, 'CRASH': 0})
        self.assertEqual(cell.results['sched_dl_bw.bw_alloc'],
                         ('SKIP', 'dl_bw_*() are SMP-only: CONFIG_SMP is not set'))
        self.assertEqual(cell.results['sched_dl_bw.state_restored'], ('PASS', ''))

    def test_no_ktap_at_all(self):
        self.put('00-baseline', SHA0, log='Booting Linux...\nKernel panic\n',
                 kunit_json=False)
        cell = self.cell('00-baseline', SHA0)
        self.assertIn('no KTAP output (kernel did not boot or crashed early)', cell.problems)
        self.assertFalse(cell.ok)


class DerivedOutputTest(ReportTestCase):
    """Variants of the real passing log."""

    def put_variant(self, step, sha, log):
        self.put(step, sha, log=log, kunit_json=json_of(log))

    def test_skip_keeps_its_reason(self):
        log = fixture('pass', 'test.log').replace(
            'ok 4 checkparam_limits_restored',
            'ok 4 checkparam_limits_restored # SKIP needs CONFIG_SMP')
        self.assertNotEqual(log, fixture('pass', 'test.log'))
        self.put('00-baseline', SHA0)
        self.put_variant('01-move', SHA1, log)
        cell = self.cell('01-move', SHA1)
        self.assertEqual(cell.results[f'{SUITE}.checkparam_limits_restored'],
                         ('SKIP', 'needs CONFIG_SMP'))
        self.assertEqual(cell.counts['SKIP'], 1)
        self.assertEqual(cell.problems, [])
        text, green = self.run_report()
        self.assertFalse(green, 'a skip that the baseline does not have is a difference')
        self.assertIn(f'changed: {SUITE}.checkparam_limits_restored: PASS -> '
                      'SKIP (needs CONFIG_SMP)', text)

    def test_skip_reason_change_is_a_difference(self):
        log = fixture('pass', 'test.log')
        a = log.replace('ok 4 checkparam_limits_restored',
                        'ok 4 checkparam_limits_restored # SKIP reason one')
        b = log.replace('ok 4 checkparam_limits_restored',
                        'ok 4 checkparam_limits_restored # SKIP reason two')
        self.put_variant('00-baseline', SHA0, a)
        self.put_variant('01-move', SHA1, b)
        text, green = self.run_report()
        self.assertFalse(green)
        self.assertIn('SKIP (reason one) -> SKIP (reason two)', text)
        self.assertIn('x86_64-smp: sched_dl_checkparam.checkparam_limits_restored: '
                      'reason one', text)

    def test_missing_test(self):
        log = fixture('pass', 'test.log')
        lines = [line for line in log.splitlines(keepends=True)
                 if 'checkparam_limits_restored' not in line]
        log = ''.join(lines).replace('    1..4\n', '    1..3\n', 1)
        self.put('00-baseline', SHA0)
        self.put_variant('01-move', SHA1, log)
        text, green = self.run_report()
        self.assertFalse(green)
        self.assertIn(f'missing: {SUITE}.checkparam_limits_restored (baseline PASS)', text)

    def test_renamed_test(self):
        log = fixture('pass', 'test.log').replace('checkparam_matches_model',
                                                  'checkparam_agrees_with_model')
        self.put('00-baseline', SHA0)
        self.put_variant('01-move', SHA1, log)
        text, green = self.run_report()
        self.assertFalse(green)
        self.assertIn(f'missing: {SUITE}.checkparam_matches_model (baseline PASS)', text)
        self.assertIn(f'new: {SUITE}.checkparam_agrees_with_model PASS', text)

    def test_kernel_splat_is_red(self):
        log = fixture('pass', 'test.log').replace(
            'KTAP version 1\n',
            'KTAP version 1\n[    1.5] WARNING: CPU: 0 PID: 1 at kernel/sched/deadline.c:42\n', 1)
        self.put('00-baseline', SHA0, log=log)
        cell = self.cell('00-baseline', SHA0)
        self.assertEqual(cell.problems, ['kernel splat: 1 line(s), first: [    1.5] '
                                         'WARNING: CPU: 0 PID: 1 at kernel/sched/deadline.c:42'])
        self.assertEqual(cell.failures, [])
        self.assertFalse(cell.ok)

    def test_json_that_disagrees_with_the_log(self):
        doc = json.loads(fixture('pass', 'kunit.json'))
        doc['sub_groups'][0]['test_cases'][0]['status'] = 'FAIL'
        self.put('00-baseline', SHA0, kunit_json=json.dumps(doc))
        cell = self.cell('00-baseline', SHA0)
        self.assertEqual(len(cell.problems), 1, cell.problems)
        self.assertIn('kunit.json says', cell.problems[0])


class HarnessProblemTest(ReportTestCase):

    def test_not_run(self):
        self.put('00-baseline', SHA0)
        text, green = self.run_report()
        self.assertFalse(green)
        self.assertIn('01-move x86_64-smp: not run', text)

    def test_build_failed(self):
        self.put('00-baseline', SHA0)
        self.put('01-move', SHA1, meta='build_rc=2\nbuild_seconds=10\ncomplete=y\n',
                 log=False, kunit_json=False)
        text, green = self.run_report()
        self.assertFalse(green)
        self.assertIn('BUILD FAILED', text)

    def test_steps_that_do_not_match_the_series(self):
        with open(os.path.join(self.series, 'series'), 'w', encoding='utf-8') as f:
            f.write('0001-move.patch\n0001-move.patch\n')
        self.put('00-baseline', SHA0)
        self.put('01-move', SHA1)
        with self.assertRaisesRegex(report.ReportError, '2 steps for 2 patches'):
            self.run_report()

    def test_series_is_listed_with_digests(self):
        self.put('00-baseline', SHA0)
        self.put('01-move', SHA1)
        text, _ = self.run_report()
        self.assertIn('- Series: 1 patch(es)', text)
        self.assertRegex(text, r'`0001-move.patch` sha256 `[0-9a-f]{64}`')

    def test_meta_without_sha_is_stale(self):
        meta = '\n'.join(line for line in fixture('pass', 'meta').splitlines()
                         if not line.startswith('sha='))
        self.put('00-baseline', SHA0)
        d = os.path.join(self.results, '00-baseline', CELL['name'], 'meta')
        with open(d, 'w', encoding='utf-8') as f:
            f.write(meta)
        cell = self.cell('00-baseline', SHA0)
        self.assertIn('stale: ran ?, step is aaaaaaaaaaaa', cell.problems)

    def test_exec_failure_without_failed_test(self):
        meta = fixture('pass', 'meta').replace('exec_rc=0', 'exec_rc=1')
        self.put('00-baseline', SHA0, meta=meta)
        cell = self.cell('00-baseline', SHA0)
        self.assertIn('kunit.py exec exited 1 with no failed test', cell.problems)

    def test_stale_result(self):
        self.put('00-baseline', SHA0)
        self.put('01-move', 'c' * 40)
        text, green = self.run_report()
        self.assertFalse(green)
        self.assertIn('stale: ran cccccccccccc, step is bbbbbbbbbbbb', text)

    def test_cell_that_is_not_what_it_claims(self):
        meta = fixture('pass', 'meta').replace('booted_cpus=4', 'booted_cpus=1')
        self.put('00-baseline', SHA0, meta=meta)
        cell = self.cell('00-baseline', SHA0)
        self.assertIn('1 CPU(s) up, cell wants 4', cell.problems)
        meta = fixture('pass', 'meta').replace('config_smp=y', 'config_smp=n')
        shutil.rmtree(self.results)
        self.put('00-baseline', SHA0, meta=meta)
        cell = self.cell('00-baseline', SHA0)
        self.assertIn('CONFIG_SMP=n in a SMP cell', cell.problems)


class RunStateTest(ReportTestCase):
    """Incomplete runs, stale inputs, the plan and report.json."""

    def test_interrupted_run_is_incomplete_not_a_kernel_failure(self):
        self.put('00-baseline', SHA0)
        meta = fixture('pass', 'meta').replace('complete=y\n', 'interrupted=SIGINT\n')
        self.put('01-move', SHA1, meta=meta, log='', kunit_json=False)
        data = report.judge(self.args(), [CELL])
        entry = data['grid']['01-move'][CELL['name']]
        self.assertEqual(entry['status'], 'incomplete')
        self.assertEqual(data['problems'], ['01-move x86_64-smp: incomplete: '
                                            'interrupted by SIGINT'])
        text = report.render_markdown(data)
        self.assertIn('**INCOMPLETE**', text)
        self.assertNotIn('did not boot', text)
        self.assertEqual(data['verdict'], 'RED')

    def test_run_that_died_without_marker_is_incomplete(self):
        self.put('00-baseline', SHA0)
        self.put('01-move', SHA1, complete=False)
        cell = self.cell('01-move', SHA1)
        self.assertEqual(cell.status, 'incomplete')
        self.assertEqual(cell.problems, ['incomplete: the run did not finish'])

    def test_changed_input_makes_the_cell_stale(self):
        meta = fixture('pass', 'meta') + 'input_kunitconfig_sha256=old\ninput_qemu_args=-smp 4\n'
        self.put('00-baseline', SHA0, meta=meta)
        self.put('01-move', SHA1, meta=meta)
        now = {'kunitconfig_sha256': 'new', 'qemu_args': '-smp 4'}
        data = report.judge(self.args(), [CELL], inputs=lambda kind, name: now)
        self.assertEqual(data['grid']['01-move'][CELL['name']]['status'], 'stale')
        self.assertIn('01-move x86_64-smp: stale: kunitconfig_sha256 was "old", is "new"',
                      data['problems'])
        self.assertEqual(data['verdict'], 'RED')
        same = {'kunitconfig_sha256': 'old', 'qemu_args': '-smp 4'}
        data = report.judge(self.args(), [CELL], inputs=lambda kind, name: same)
        self.assertEqual(data['verdict'], 'GREEN', data['problems'])
        data = report.judge(self.args(), [CELL],
                            inputs=lambda kind, name: {**same, 'kunit_timeout': '240'})
        self.assertIn('01-move x86_64-smp: stale: no kunit_timeout recorded', data['problems'])

    def test_plan_leaves_steps_to_the_main_job(self):
        self.put('00-baseline', SHA0)
        plan = {'cells': {CELL['name']: ['00-baseline']}, 'left': ['every step'],
                'why': {'every step': 'estimated at 900 s with 60 s to go'}}
        text, green = self.run_report(plan=plan)
        self.assertTrue(green, text)
        self.assertIn('| 01-move | `bbbbbbbbbbbb` | left to the main job |', text)
        self.assertIn('- 01-move x86_64-smp', text)
        self.assertIn(': every step (estimated at 900 s with 60 s to go)', text)
        # A cell the plan does not name at all is left too.
        shutil.rmtree(os.path.join(self.results, '00-baseline'))
        text, green = self.run_report(plan={'cells': {}, 'left': []})
        self.assertTrue(green, text)
        self.assertIn('| 00-baseline | `aaaaaaaaaaaa` | left to the main job |', text)
        self.put('00-baseline', SHA0)
        # An earlier run's stale or incomplete result where the plan runs
        # nothing is left to the main job too.
        self.put('01-move', 'c' * 40)
        text, green = self.run_report(plan=plan)
        self.assertTrue(green, text)
        shutil.rmtree(os.path.join(self.results, '01-move'))
        # Planned but missing is still a problem.
        text, green = self.run_report(plan={'cells': {CELL['name']: ['00-baseline',
                                                                     '01-move']}})
        self.assertFalse(green)
        self.assertIn('01-move x86_64-smp: not run', text)

    def test_json_and_junit_beside_the_markdown(self):
        self.put('00-baseline', SHA0)
        self.put('01-move', SHA1, 'fail')
        steps = os.path.join(self.dir, 'steps')
        out = os.path.join(self.dir, 'out', 'report.md')
        os.makedirs(os.path.dirname(out))
        with contextlib.redirect_stdout(io.StringIO()):
            rc = report.main(['--tree', TREE, '--results', self.results,
                              '--steps-file', steps, '--series-dir', self.series,
                              '--package', 'linux-source-6.1', '--package-version', '9.9',
                              '--tested-version', '6.1.192-3', '--kernel-version', 'k',
                              '--cells', CELL['name'], '--no-inputs', '--out', out])
        self.assertEqual(rc, 1)
        with open(os.path.join(self.dir, 'out', 'report.json'), encoding='utf-8') as f:
            data = json.load(f)
        self.assertEqual(data['verdict'], 'RED')
        self.assertEqual(data['grid']['01-move'][CELL['name']]['status'], 'differs')
        self.assertIn('newer than the version the series is tested on', data['warnings'][0])
        with open(out, encoding='utf-8') as f:
            self.assertIn('**WARNING: the installed package version 9.9 is newer', f.read())
        self.assertTrue(os.path.isfile(os.path.join(self.dir, 'out', 'junit',
                                                    'x86_64-smp.xml')))

    def test_only_green_fresh_results_are_reused(self):
        data = matrix.load()
        inputs = matrix.inputs(matrix.select(data, CELL['name'])[0])
        fresh_meta = fixture('pass', 'meta') + ''.join(f'input_{k}={v}\n'
                                                       for k, v in inputs.items())
        cases = {
            'green': (fresh_meta, True),
            'tests failed': (fresh_meta.replace('exec_rc=0', 'exec_rc=1'), False),
            'timed out': (fresh_meta.replace('timed_out=n', 'timed_out=y'), False),
            'harness failure': (fresh_meta + 'harness_failed=y\n', False),
            'incomplete': (fresh_meta.replace('complete=y\n', ''), False),
            'other inputs': (fresh_meta.replace('input_kunit_timeout=', 'input_kunit_timeout=1'),
                             False),
        }
        for what, (meta, want) in cases.items():
            with self.subTest(what):
                shutil.rmtree(self.results, ignore_errors=True)
                self.put('00-baseline', SHA0, meta=meta)
                self.assertIs(report.fresh(self.args(), data, '00-baseline', CELL['name']), want)
        self.assertFalse(report.fresh(self.args(), data, '01-move', CELL['name']))
        # Red for what the report finds, not for an exit code: a kernel
        # splat in the log, or a kunit.json that disagrees with it.
        log = fixture('pass', 'test.log')
        splat = log.replace('\n', '\nWARNING: CPU: 0 PID: 1 at kernel/sched/core.c:1 x\n', 1)
        for what, kwargs in (('splat', {'log': splat}), ('no kunit.json', {'kunit_json': False})):
            with self.subTest(what):
                shutil.rmtree(self.results, ignore_errors=True)
                self.put('00-baseline', SHA0, meta=fresh_meta, **kwargs)
                self.assertFalse(report.fresh(self.args(), data, '00-baseline', CELL['name']))

    def test_progress_line(self):
        self.put('00-baseline', SHA0)
        self.put('01-move', SHA1, 'fail')
        args = self.args()
        line = report.progress(args, [CELL], [], '01-move', CELL['name'])
        self.assertRegex(line, r'^build \d+ s, run \d+ s, 59 passed, 0 skipped, 6 failed, '
                               r'DIFFERS \(8\), RED \(sched_dl_checkparam: FAIL\)$')
        self.assertRegex(report.progress(args, [CELL], [], '00-baseline', CELL['name']),
                         r'^build \d+ s, run \d+ s, 65 passed, 0 skipped, 0 failed$')


class UpstreamTest(ReportTestCase):
    """The run of patches/kunit/ (scripts/upstream-kunit.sh) in the report."""

    def put_upstream(self, line, sha=SHA0, complete=True):
        d = os.path.join(self.results, 'upstream-kunit')
        os.makedirs(d)
        with open(os.path.join(d, 'meta'), 'w', encoding='utf-8') as f:
            f.write(f'sha={sha}\ncell=arm-up\n' + ('complete=y\n' if complete else ''))
        if line is not None:
            with open(os.path.join(d, 'summary'), 'w', encoding='utf-8') as f:
                f.write(line + '\n')

    def run_upstream(self, sha=SHA0, expect=''):
        self.put('00-baseline', SHA0)
        self.put('01-move', SHA1)
        args = self.args()
        args.upstream_sha = sha
        args.expect = expect
        data = report.judge(args, [CELL])
        return report.render_markdown(data), data['verdict'] == 'GREEN'

    def test_not_run(self):
        text, green = self.run_upstream()
        self.assertTrue(green)
        self.assertIn('Not run (scripts/upstream-kunit.sh).', text)

    def test_green(self):
        self.put_upstream('upstream-kunit arm-up: GREEN: Ran 55 tests: passed: 55; '
                          'suites ok: sched_dl_checkparam (40 s)')
        text, green = self.run_upstream()
        self.assertTrue(green)
        self.assertIn('GREEN: upstream-kunit arm-up: GREEN: Ran 55 tests', text)

    def test_red_makes_the_report_red(self):
        self.put_upstream('upstream-kunit arm-up: RED: Ran 55 tests: passed: 54, failed: 1; '
                          'not ok: sched_dl_checkparam (40 s)')
        text, green = self.run_upstream()
        self.assertFalse(green)
        self.assertIn('- upstream-kunit: red: upstream-kunit arm-up: RED', text)

    def test_incomplete_is_red(self):
        self.put_upstream(None, complete=False)
        text, green = self.run_upstream()
        self.assertFalse(green)
        self.assertIn('- upstream-kunit: incomplete: no summary', text)

    def test_stale_does_not_count(self):
        self.put_upstream('upstream-kunit arm-up: RED: nothing ran', sha=SHA1)
        text, green = self.run_upstream(sha=SHA0)
        self.assertTrue(green)
        self.assertIn('Not run on the current commit', text)

    def test_expected_but_not_run_is_red(self):
        # The main job ran upstream-kunit.sh, which wrote nothing (or an
        # earlier run's result is all there is): red, not green.
        text, green = self.run_upstream(expect='upstream')
        self.assertFalse(green)
        self.assertIn('- upstream-kunit: not run on the current commit', text)
        self.put_upstream('upstream-kunit arm-up: GREEN: Ran 55 tests', sha=SHA1)
        shutil.rmtree(os.path.join(self.results, '01-move'))
        shutil.rmtree(os.path.join(self.results, '00-baseline'))
        text, green = self.run_upstream(sha=SHA0, expect='upstream')
        self.assertFalse(green)


class PeerTest(ReportTestCase):
    """The peer check (scripts/peer-check.sh) in the report."""

    def put_peer(self, step, line, sha):
        d = os.path.join(self.results, 'peer', step)
        os.makedirs(d)
        with open(os.path.join(d, 'meta'), 'w', encoding='utf-8') as f:
            f.write(f'step={step}\nsha={sha}\n')
        if line is not None:
            with open(os.path.join(d, 'verdict'), 'w', encoding='utf-8') as f:
                f.write(line + '\n')

    def run_peer(self, expect=''):
        self.put('00-baseline', SHA0)
        self.put('01-move', SHA1)
        args = self.args()
        args.expect = expect
        data = report.judge(args, [CELL])
        return report.render_markdown(data), data['verdict'] == 'GREEN'

    def test_not_run(self):
        text, green = self.run_peer()
        self.assertTrue(green)
        self.assertIn('Not run (the main job runs it at the baseline and the last step).', text)

    def test_green(self):
        self.put_peer('00-baseline', '00-baseline peer: GREEN: as peer/rt-dl.expected (rt-dl)',
                      SHA0)
        self.put_peer('01-move', '01-move peer: GREEN: as peer/none.expected (none)', SHA1)
        text, green = self.run_peer()
        self.assertTrue(green)
        self.assertIn('- 01-move: GREEN: 01-move peer: GREEN: as peer/none.expected', text)

    def test_red_and_harness_make_the_report_red(self):
        self.put_peer('00-baseline', '00-baseline peer: RED: differs from peer/rt-dl.expected',
                      SHA0)
        self.put_peer('01-move', '01-move peer: HARNESS: QEMU timed out after 120 s', SHA1)
        text, green = self.run_peer()
        self.assertFalse(green)
        self.assertIn('- 00-baseline peer: red: 00-baseline peer: RED', text)
        self.assertIn('- 01-move peer: harness: 01-move peer: HARNESS: QEMU timed out', text)

    def test_no_verdict_is_incomplete(self):
        self.put_peer('01-move', None, SHA1)
        text, green = self.run_peer()
        self.assertFalse(green)
        self.assertIn('- 01-move peer: incomplete: no verdict', text)

    def test_expected_but_not_run_is_red(self):
        # The main job ran peer-check.sh, which failed before writing a
        # verdict at the last step (e.g. not root): red, not green.
        self.put_peer('00-baseline', '00-baseline peer: GREEN: as peer/rt-dl.expected (rt-dl)',
                      SHA0)
        text, green = self.run_peer(expect='peer')
        self.assertFalse(green)
        self.assertIn('- 01-move peer: not run: scripts/peer-check.sh wrote no verdict', text)

    def test_other_inputs_are_stale(self):
        # A verdict against another peer/*.expected (or init, or script)
        # does not stand, at the same commit.
        self.put_peer('01-move', '01-move peer: GREEN: as peer/none.expected (none)', SHA1)
        with open(os.path.join(self.results, 'peer', '01-move', 'meta'), 'a',
                  encoding='utf-8') as f:
            f.write('input_peer_sha256=old\n')
        steps = [('01-move', SHA1)]
        self.assertEqual(report.judge_peer(self.results, steps, {'peer_sha256': 'old'}),
                         {'01-move': {'status': 'green', 'line': '01-move peer: GREEN: as '
                                                                 'peer/none.expected (none)'}})
        self.assertEqual(report.judge_peer(self.results, steps,
                                           {'peer_sha256': 'new'})['01-move']['status'], 'stale')

    def test_stale_does_not_count(self):
        self.put_peer('01-move', '01-move peer: RED: differs', SHA0)
        text, green = self.run_peer()
        self.assertTrue(green)
        self.assertIn('- 01-move: not run on the current commit', text)


class DifferencesTest(unittest.TestCase):

    def test_differences(self):
        base = {'a': ('PASS', ''), 'b': ('SKIP', 'x'), 'c': ('PASS', '')}
        other = {'a': ('PASS', ''), 'b': ('SKIP', 'y'), 'd': ('FAIL', '')}
        self.assertEqual(report.differences(base, other), [
            'changed: b: SKIP (x) -> SKIP (y)',
            'missing: c (baseline PASS)',
            'new: d FAIL',
        ])
        self.assertEqual(report.differences(base, dict(base)), [])


class MainTest(unittest.TestCase):

    def test_bad_steps_file(self):
        with tempfile.TemporaryDirectory() as d:
            steps = os.path.join(d, 'steps')
            with open(steps, 'w', encoding='utf-8') as f:
                f.write('01-x ' + SHA1 + '\n')
            out = os.path.join(d, 'r.md')
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                rc = report.main(['--tree', TREE, '--results', d, '--steps-file', steps,
                                  '--series-dir', d, '--package', 'p',
                                  '--package-version', 'v', '--kernel-version', 'k',
                                  '--out', out])
            self.assertEqual(rc, 2)
            self.assertIn('the first step must be 00-baseline', err.getvalue())
            self.assertFalse(os.path.exists(out))


if __name__ == '__main__':
    sys.exit(unittest.main())


class MeasureTest(unittest.TestCase):
    """The size and build-only sections judge what the scripts kept."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()  # pylint: disable=consider-using-with
        self.results = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, step, name, filename, text):
        d = os.path.join(self.results, step, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, filename), 'w', encoding='utf-8') as f:
            f.write(text)

    def sizes(self, step, vmlinux_text, sched_text):
        self.write(step, 'c', 'size',
                   f'vmlinux {vmlinux_text} 10 20 {vmlinux_text + 30}\n'
                   f'kernel/sched/built-in.a {sched_text} 1 2 {sched_text + 3}\n')

    def test_size_within_limit(self):
        self.sizes('00-baseline', 100000, 10000)
        self.sizes('02-last', 100100, 10010)
        rows, problems = report.judge_sizes(self.results, '00-baseline', '02-last', ['c'], 0.1)
        lines = report.render_sizes('00-baseline', '02-last', rows, 0.1)
        self.assertEqual(problems, [])
        self.assertIn('| c | kernel/sched/built-in.a | 10000 -> 10010 | 1 | 2 | '
                      '+10 (+0.100%) |', lines)

    def test_size_over_limit(self):
        self.sizes('00-baseline', 100000, 10000)
        self.sizes('02-last', 100000, 10011)
        _, problems = report.judge_sizes(self.results, '00-baseline', '02-last', ['c'], 0.1)
        self.assertEqual(len(problems), 1)
        self.assertIn('kernel/sched/built-in.a grows by 11 bytes', problems[0])

    def test_size_missing(self):
        self.sizes('00-baseline', 100000, 10000)
        _, problems = report.judge_sizes(self.results, '00-baseline', '02-last', ['c'], 0.1)
        self.assertEqual(len(problems), 1)
        self.assertIn('no size to compare', problems[0])

    def build(self, step, sha, rc=0, warnings='', section='', scope=''):
        needs = f'needs=SCHED_CLASS_DL\nneeds_section={section}\n' if section else ''
        scope = f'scope={scope}\n' if scope else ''
        self.write(step, 'b', 'meta',
                   f'step={step}\nsha={sha}\n{scope}{needs}build_rc={rc}\ncomplete=y\n')
        self.write(step, 'b', 'warnings', warnings)

    def test_needs_section_left_out_then_used(self):
        # The baseline, without the option, is built without the section;
        # a later step with it is compared with that.
        self.build('00-baseline', 'a0', warnings='kernel/sched/fair.c: warning: old\n',
                   section='left out')
        self.build('01-x', 'a1', warnings='kernel/sched/fair.c: warning: old\n'
                                          'kernel/sched/core.c: warning: unused dl\n',
                   section='used')
        grid, problems = report.judge_builds(
            self.results, ['00-baseline', '01-x'], {'00-baseline': 'a0', '01-x': 'a1'}, ['b'])
        lines = report.render_builds(grid, ['00-baseline', '01-x'], ['b'])
        self.assertIn('| 00-baseline | built without the SCHED_CLASS_DL section (no such option '
                      'here), 1 warning(s) |', lines)
        self.assertIn('| 01-x | built, 2 warning(s), **1 NEW** |', lines)
        self.assertEqual(problems,
                         ['01-x b: new W=1 warning: kernel/sched/core.c: warning: unused dl'])

    def test_new_warning_is_a_problem(self):
        self.build('00-baseline', 'a0', warnings='kernel/sched/core.c: warning: old\n')
        self.build('01-x', 'a1', warnings='kernel/sched/core.c: warning: old\n'
                                          'kernel/sched/rt.c: warning: new\n')
        grid, problems = report.judge_builds(
            self.results, ['00-baseline', '01-x'], {'00-baseline': 'a0', '01-x': 'a1'}, ['b'])
        lines = report.render_builds(grid, ['00-baseline', '01-x'], ['b'])
        self.assertEqual(problems, ['01-x b: new W=1 warning: kernel/sched/rt.c: warning: new'])
        self.assertIn('| 01-x | built, 2 warning(s), **1 NEW** |', lines)

    def test_new_warning_in_a_file_the_series_touches_is_a_problem(self):
        # build-only.sh keeps the warnings of every file the series touches.
        self.build('00-baseline', 'a0', warnings='kernel/locking/locktorture.c: warning: old\n',
                   scope='vmlinux')
        self.build('01-x', 'a1', warnings='kernel/locking/locktorture.c: warning: old\n'
                                          'kernel/locking/locktorture.c: warning: new\n')
        _, problems = report.judge_builds(
            self.results, ['00-baseline', '01-x'], {'00-baseline': 'a0', '01-x': 'a1'}, ['b'])
        self.assertEqual(problems, ['01-x b: new W=1 warning: kernel/locking/locktorture.c: '
                                    'warning: new'])

    def test_kernel_sched_only_baseline_compares_kernel_sched_only(self):
        # The test command's baseline is built kernel/sched/ only: it has
        # no warnings elsewhere to compare a full build's with.
        self.build('00-baseline', 'a0', warnings='kernel/sched/core.c: warning: old\n',
                   scope='kernel/sched')
        self.build('01-x', 'a1', warnings='kernel/sched/core.c: warning: old\n'
                                          'kernel/sched/rt.c: warning: new\n'
                                          'kernel/locking/locktorture.c: warning: old\n',
                   scope='vmlinux')
        _, problems = report.judge_builds(
            self.results, ['00-baseline', '01-x'], {'00-baseline': 'a0', '01-x': 'a1'}, ['b'])
        self.assertEqual(problems, ['01-x b: new W=1 warning: kernel/sched/rt.c: warning: new'])

    def test_build_failed_stale_and_not_run(self):
        self.build('00-baseline', 'a0', rc=2)
        self.build('01-x', 'old')
        _, problems = report.judge_builds(
            self.results, ['00-baseline', '01-x', '02-y'],
            {'00-baseline': 'a0', '01-x': 'a1', '02-y': 'a2'}, ['b'])
        self.assertEqual(len(problems), 3)
        self.assertIn('build failed', problems[0])
        self.assertIn('stale', problems[1])
        self.assertIn('not run', problems[2])
