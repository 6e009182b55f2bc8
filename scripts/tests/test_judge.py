# SPDX-License-Identifier: GPL-2.0
"""Tests of sched_tinify/judge.py and render.py: results written as
run.py writes them (result.json beside real console logs from fixtures/),
each judged against its reference."""

import json
import os
import shutil
import sys
import tempfile
import unittest

from tests import faketree
import xml.etree.ElementTree as ET
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from sched_tinify import (  # noqa: E402 pylint: disable=C0413
    config, judge, mutants, parse, render, run)

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures')
TREE = faketree.TREE
A, B = '0' * 40, '1' * 40
STEPS = [(config.BASELINE, A), ('01-x', B)]


def target(name, **kw):
    fields = dict(name=name, arch='x86_64', cross_compile='', compiler='gcc', console='ttyS0',
                  kunitconfig=('kunitconfigs/x86_64-smp',), cpus=4)
    fields.update(kw)
    return config.Target(**fields)


SMP = target('x86_64-smp')
SANITIZE = target('x86_64-smp-sanitize', same_as='x86_64-smp', kmemleak=True)
LEAN = target('lean', build_only=True, cpus=1)


@faketree.needs_tree
class JudgeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.work = run.Work('pkg', self.tmp.name, os.path.join(self.tmp.name, 'results'),
                             series=os.path.join(config.REPO, config.kernels(
                                 config.load())[0].patches))
        patcher = mock.patch.object(config, 'first_line', lambda *argv: f'{argv[0]} 1')
        patcher.start()
        self.addCleanup(patcher.stop)
        self.kp = parse.parser(TREE)

    def put(self, t, step, fixture='pass', edit=None, work=None, inputs=None, **fields):
        """A result of @t at @step (in @work): the fixture's logs,
        result.json as run.run() writes it (with @inputs), changed by
        @fields."""
        out = (work or self.work).out(step, t.name)
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(os.path.join(FIXTURES, fixture), out)
        if edit:
            with open(os.path.join(out, 'test.log'), encoding='utf-8') as f:
                log = f.read()
            with open(os.path.join(out, 'test.log'), 'w', encoding='utf-8') as f:
                f.write(edit(log))
        sha = dict(STEPS)[step]
        inputs = inputs or run.inputs_of(t, sha, fields.pop('sched_only', False))
        res = {'target': t.name, 'step': step, 'sha': sha, 'inputs': inputs,
               'key': config.key(inputs), 'complete': True, 'build': {'rc': 0, 'seconds': 9},
               'run': {'rc': 0, 'seconds': 2, 'timed_out': False},
               'config_smp': t.smp, 'booted_cpus': t.cpus}
        if t.build_only:
            res.pop('run')
            res.update(scope='vmlinux', warnings=[])
        res.update(fields)
        with open(os.path.join(out, 'result.json'), 'w', encoding='utf-8') as f:
            json.dump(res, f)

    def judged(self, targets, plan=None):
        return judge.judge_run(self.work, self.kp, targets, STEPS, plan)

    def test_read_for_itself(self):
        cases = [
            ('not run', None, judge.NOT_RUN),
            ('stale', {'key': 'other'}, judge.STALE),
            ('incomplete', {'complete': False, 'interrupted': 'SIGINT'}, judge.INCOMPLETE),
            ('harness', {'harness_error': 'cell claims 4 CPU(s) but the kernel brought up 1'},
             judge.HARNESS),
            ('build failed', {'build': {'rc': 2, 'seconds': 1}}, judge.BUILD_FAILED),
        ]
        for what, fields, status in cases:
            with self.subTest(what):
                self.put(SMP, config.BASELINE)
                shutil.rmtree(self.work.out('01-x', SMP.name), ignore_errors=True)
                if fields is not None:
                    self.put(SMP, '01-x', **fields)
                data = self.judged([SMP])
                e = data['grid']['01-x'][SMP.name]
                self.assertEqual(e['status'], status)
                self.assertEqual(data['verdict'], 'RED')
                self.assertTrue(e['problems'][0].startswith(status))
                # What the test command's plan does not name is left to the main job: the
                # result of an earlier run too, even one the harness failed.
                if status != judge.BUILD_FAILED:
                    left = self.judged([SMP], {SMP.name: [config.BASELINE]})
                    self.assertEqual(left['grid']['01-x'][SMP.name]['status'], judge.LEFT)
                    self.assertEqual(left['verdict'], 'GREEN')
                    self.assertEqual(left['left'], [f'01-x {SMP.name}'])

    def test_a_step_whose_reference_was_left_is_left(self):
        """The test command stopped at its deadline while it redid a baseline: the steps held
        against it are left with it, not red for want of a reference, nor green."""
        for t in (SMP, LEAN):
            with self.subTest(t.name):
                self.put(t, config.BASELINE, complete=False, interrupted='SIGALRM')
                self.put(t, '01-x')
                data = self.judged([t], {t.name: ['01-x']})
                self.assertEqual((data['verdict'], data['left']),
                                 ('GREEN', [f'{config.BASELINE} {t.name}', f'01-x {t.name}']))
        # Its own problems and failures still count, and its square says so.
        for fixture, edit in (('pass', lambda log: log + 'BUG: kernel NULL pointer\n'),
                              ('fail', None)):
            with self.subTest(fixture):
                self.put(SMP, '01-x', fixture, edit=edit)
                data = self.judged([SMP], {SMP.name: ['01-x']})
                self.assertEqual(data['verdict'], 'RED')
                self.assertEqual(render.text(data['grid']['01-x'][SMP.name]), '**RED** left')
        # A debug cell is held against its plain cell when that one ran, its baseline left.
        self.put(SMP, '01-x')
        self.put(SANITIZE, '01-x', 'fail')
        data = self.judged([SMP, SANITIZE], {SMP.name: ['01-x'], SANITIZE.name: ['01-x']})
        self.assertEqual(data['grid']['01-x'][SANITIZE.name]['status'], judge.DIFFERS)

    def test_against_the_baseline(self):
        self.put(SMP, config.BASELINE)
        self.put(SMP, '01-x')
        data = self.judged([SMP])
        self.assertEqual([data['grid'][s][SMP.name]['status'] for s, _ in STEPS],
                         [judge.BASE, judge.SAME])
        self.assertEqual((data['verdict'], data['judged'], data['problems']), ('GREEN', 2, []))
        # A case renamed: one missing, one new.
        self.put(SMP, '01-x', edit=lambda log: log.replace('ok 1 overflow_fixed_point',
                                                           'ok 1 overflow_fixed_point2', 1))
        data = self.judged([SMP])
        e = data['grid']['01-x'][SMP.name]
        self.assertEqual(e['status'], judge.DIFFERS)
        self.assertTrue(any(d.startswith('missing: ') for d in e['differences']))
        self.assertTrue(any(d.startswith('new: ') for d in e['differences']))
        self.assertEqual(data['verdict'], 'RED')
        # A red baseline: nothing to compare with.
        self.put(SMP, config.BASELINE, 'fail')
        self.put(SMP, '01-x')
        self.assertEqual(self.judged([SMP])['grid']['01-x'][SMP.name]['status'], judge.BASE_RED)

    def test_problems_of_a_boot(self):
        cases = [
            ('splat', {}, lambda log: log + 'WARNING: CPU: 0 PID: 1 at x\n', 'kernel splat'),
            ('time-out', {'run': {'rc': 1, 'seconds': 9, 'timed_out': True}}, None,
             'QEMU timed out'),
            ('exit', {'run': {'rc': 1, 'seconds': 9, 'timed_out': False}}, None,
             'kunit.py exec exited 1 with no failed test'),
            ('CPUs', {'booted_cpus': 1}, None, '1 CPU(s) up, 4 asked for'),
            ('not SMP', {'config_smp': False}, None, 'CONFIG_SMP=n in a SMP target'),
        ]
        for what, fields, edit, problem in cases:
            with self.subTest(what):
                self.put(SMP, config.BASELINE)
                self.put(SMP, '01-x', edit=edit, **fields)
                e = self.judged([SMP])['grid']['01-x'][SMP.name]
                self.assertTrue(any(p.startswith(problem) for p in e['problems']), e['problems'])
        self.put(SMP, '01-x', 'crash')
        e = self.judged([SMP])['grid']['01-x'][SMP.name]
        self.assertTrue(any(f.endswith(': CRASH') for f in e['failures']))
        os.remove(os.path.join(self.work.out('01-x', SMP.name), 'kunit.json'))
        e = self.judged([SMP])['grid']['01-x'][SMP.name]
        self.assertTrue(any(p.startswith('kunit.json unreadable') for p in e['problems']))

    def test_tiny(self):
        expected = os.path.join(self.tmp.name, 'tiny.expected')
        tiny = target('tiny', cpus=1, needs='SCHED_CLASS_DL', expected=expected)
        kp = self.kp
        results, _, _ = parse.ktap(kp, judge.read_log(os.path.join(FIXTURES, 'skip-up',
                                                                   'test.log')))
        lines = [f'{p}\t{s}\t{r}' if r else f'{p}\t{s}' for p, (s, r) in results.items()]
        lines += ['console: no kernel splat\tPASS', 'console has: Linux version\tPASS',
                  'console lacks: Kernel panic\tPASS']
        with open(expected, 'w', encoding='utf-8') as f:
            f.write('# by hand\n' + '\n'.join(lines) + '\n')
        self.put(tiny, config.BASELINE, na='no config SCHED_CLASS_DL')
        self.put(tiny, '01-x', 'skip-up')
        data = self.judged([tiny])
        self.assertEqual(data['grid'][config.BASELINE]['tiny']['status'], judge.NA)
        self.assertEqual(data['grid']['01-x']['tiny']['status'], judge.AS_EXPECTED)
        self.assertEqual(data['verdict'], 'GREEN')
        for what, edit, diff in (
                ('a skip reason', lambda log: log.replace('# SKIP ', '# SKIP x', 1), 'changed: '),
                ('a panic', lambda log: log + 'Kernel panic - not syncing\n',
                 'changed: console lacks: Kernel panic: PASS -> FAIL')):
            with self.subTest(what):
                self.put(tiny, '01-x', 'skip-up', edit=edit)
                e = self.judged([tiny])['grid']['01-x']['tiny']
                self.assertEqual(e['status'], judge.NOT_EXPECTED)
                self.assertTrue(any(d.startswith(diff) for d in e['differences']),
                                e['differences'])

    def test_debug_against_the_plain_cell(self):
        self.put(SMP, config.BASELINE, 'kmemleak')
        self.put(SANITIZE, config.BASELINE, 'kmemleak')
        data = self.judged([SMP, SANITIZE])
        self.assertEqual(data['grid'][config.BASELINE][SANITIZE.name]['status'], judge.SAME)
        self.assertIn('allocated in early boot', data['grid'][config.BASELINE][
            SANITIZE.name]['notes'][0])
        # Noted in the report, not counted.
        self.assertEqual(len(data['notes']), 1)
        self.assertTrue(data['notes'][0].startswith(f'{config.BASELINE} {SANITIZE.name}: '))
        self.put(SMP, config.BASELINE, 'fail')
        e = self.judged([SMP, SANITIZE])['grid'][config.BASELINE][SANITIZE.name]
        self.assertIn('has no green result', e['problems'][0])
        # Without the init's scan: a problem of the debug cell only.
        self.put(SMP, config.BASELINE)
        self.put(SANITIZE, config.BASELINE, 'pass')
        data = self.judged([SMP, SANITIZE])
        self.assertEqual(data['grid'][config.BASELINE][SMP.name]['problems'], [])
        # Another result than the plain cell's: a difference.
        self.put(SANITIZE, config.BASELINE, 'kmemleak')
        e = self.judged([SMP, SANITIZE])['grid'][config.BASELINE][SANITIZE.name]
        self.assertEqual(e['status'], judge.DIFFERS)
        self.assertTrue(e['differences'])
        self.put(SANITIZE, config.BASELINE, 'pass')
        e = self.judged([SMP, SANITIZE])['grid'][config.BASELINE][SANITIZE.name]
        self.assertTrue(any('did not finish' in p for p in e['problems']))

    def test_planted_bugs(self):
        main = __import__('sched_tinify.__main__', fromlist=['selfcheck'])
        sw = self.work.sub('selfcheck', SANITIZE.name)
        inputs = run.inputs_of(SANITIZE, B, overlay=run.Overlay.planted())
        line = main.selfcheck(self.work, self.kp, SANITIZE, '01-x', B)[0]
        self.assertEqual(line, f'{SANITIZE.name}: planted bugs: not run')
        self.put(SANITIZE, '01-x', 'pass', work=sw)  # the plain kernel's
        line = main.selfcheck(self.work, self.kp, SANITIZE, '01-x', B)[0]
        self.assertRegex(line, 'planted bugs: stale: other .*overlay')
        # A kernel that was not built says so; it is no "0 of 5 caught".
        self.put(SANITIZE, '01-x', 'pass', work=sw, inputs=inputs, build={'rc': 2, 'seconds': 1})
        line, problems = main.selfcheck(self.work, self.kp, SANITIZE, '01-x', B)
        self.assertIn('planted bugs: build failed: see ', line)
        self.assertEqual(len(problems), 1)
        self.put(SANITIZE, '01-x', 'pass', work=sw, inputs=inputs)
        line, problems = main.selfcheck(self.work, self.kp, SANITIZE, '01-x', B)
        self.assertEqual(line, f'{SANITIZE.name}: planted bugs: 0 of 5 checks caught them')
        self.assertEqual(len(problems), 5)

    def test_builds(self):
        self.put(LEAN, config.BASELINE, warnings=['kernel/sched/a.c: warning: x'])
        # As the log has them: the files the series touches count, others not.
        self.put(LEAN, '01-x', warnings=['/w/linux/kernel/sched/a.c: warning: x',
                                         '../kernel/locking/rtmutex.c: warning: y',
                                         'mm/slab.c: warning: z'])
        e = self.judged([LEAN])['grid']['01-x']['lean']
        self.assertEqual(e['differences'],
                         ['new W=1 warning: kernel/locking/rtmutex.c: warning: y'])
        # A baseline of kernel/sched/ alone: a step of kernel/sched/ alone is held against it,
        # a whole one cannot be (its warnings in other files would go unseen).
        self.put(LEAN, config.BASELINE, scope='kernel/sched', sched_only=True,
                 warnings=['kernel/sched/a.c: warning: x'])
        data = self.judged([LEAN])
        self.assertEqual((data['grid']['01-x']['lean']['problems'], data['verdict']),
                         (['the baseline was built for kernel/sched/ only, this step in full: '
                           'its other warnings cannot be compared'], 'RED'))
        self.put(LEAN, '01-x', scope='kernel/sched', sched_only=True,
                 warnings=['/w/linux/kernel/sched/a.c: warning: x',
                           '/w/linux/kernel/sched/b.c: warning: v'])
        e = self.judged([LEAN])['grid']['01-x']['lean']
        self.assertEqual((e['problems'], e['differences']),
                         ([], ['new W=1 warning: kernel/sched/b.c: warning: v']))

    def test_a_mutant_against_its_control(self):
        path = os.path.join(self.tmp.name, '01-m.sed')
        with open(path, 'w', encoding='utf-8') as f:
            f.write('# file: kernel/sched/core.c\n# step: 00\ns/a/b/\n')
        m = mutants.read(path)
        env = {'KUNIT_TIMEOUT': '60'}
        want = mutants.inputs(m, SMP, A, env)
        mwork = self.work.sub('mutants', m.name)
        cases = [('the same results', None, 'survived'),
                 ('a case renamed', lambda log: log.replace('ok 1 overflow_fixed_point',
                                                            'ok 1 overflow_fixed_point2', 1),
                  'killed')]
        # At the baseline too: the control is the plain result there.
        for what, edit, result in cases:
            with self.subTest(what):
                self.put(SMP, config.BASELINE)
                self.put(SMP, config.BASELINE, edit=edit, work=mwork, inputs=want)
                got, _ = mutants.judge_one(self.work, self.kp, m, SMP, config.BASELINE, A, env)
                self.assertEqual(got, result)
        self.put(SMP, config.BASELINE, 'fail')
        got, _ = mutants.judge_one(self.work, self.kp, m, SMP, config.BASELINE, A, env)
        self.assertEqual(got, 'invalid (the control is red)')
        # At a later step, judged by a baseline made with other inputs: not
        # a difference, a result to make again.
        self.work.steps_file = os.path.join(self.tmp.name, 'steps')
        config.write(self.work.steps_file, ''.join(f'{n} {sha}\n' for n, sha in STEPS))
        self.put(SMP, '01-x')
        self.put(SMP, '01-x', work=mwork, inputs=mutants.inputs(m, SMP, dict(STEPS)['01-x'], env))
        self.put(SMP, config.BASELINE, inputs={'other': 'inputs'})
        got, _ = mutants.judge_one(self.work, self.kp, m, SMP, '01-x', dict(STEPS)['01-x'], env)
        self.assertEqual(got, 'invalid (the baseline is stale)')

    def test_overview(self):
        """results/report.md: each kernel's verdict and kunit lines, or that it has no report."""
        data = {'verdict': 'GREEN', 'judged': 3, 'problems': [], 'differences': [], 'left': [],
                'totals': {'PASS': 5, 'FAIL': 0, 'CRASH': 0, 'SKIP': 1}}
        config.write(os.path.join(self.tmp.name, 'a', 'report.json'), json.dumps(data))
        render.overview(self.tmp.name, ['a', 'b'])
        self.assertEqual(config.read(os.path.join(self.tmp.name, 'report.md')).splitlines()[-2:], [
            '| [a](a/report.md) | verdict: GREEN: 3 target step(s) judged, 0 problem(s), '
            '0 difference(s) | kunit: 5 passed, 0 failed, 1 skipped |',
            '| [b](b/report.md) | no report: the run stopped before it |  |'])

    def test_render(self):
        self.put(SMP, config.BASELINE, 'skip-up')
        self.put(SMP, '01-x', 'skip-up', edit=lambda log: log.replace('# SKIP ', '# SKIP x', 1))
        data = self.judged([SMP])
        data.update(steps=STEPS, kinds={SMP.name: 'cell'}, names=[SMP.name], package='pkg',
                    package_version='1', series_dir='patches',
                    series=[('0001-x.patch', 'f' * 64)], kernel='6.1.1')
        md = render.markdown(data)
        self.assertIn('## Verdict: RED', md)
        self.assertRegex(md, r'\| 01-x \| \d+/\d+/0/0 \(9\+2 s\) \*\*DIFFERS\*\* \|')
        self.assertEqual(render.verdict_line(data), 'verdict: RED: 2 target step(s) judged, '
                         '0 problem(s), 1 difference(s)')
        data['sections'] = [{'title': 'Size', 'lines': [], 'check': ''},
                            {'title': 'Peer', 'lines': [], 'check': 'the peer check at 2 step(s)'}]
        self.assertEqual(render.verdict_line(data), 'verdict: RED: 2 target step(s), the peer '
                         'check at 2 step(s) judged, 0 problem(s), 1 difference(s)')
        suites = render.junit(data, SMP.name).getroot()
        failed = suites.findall(".//testcase[@name='same as the reference']/failure")
        self.assertEqual(len(failed), 1)
        skipped = suites.findall('.//skipped')
        self.assertTrue(skipped and all(s.get('message') for s in skipped))
        # A parameter's description may hold a dot: it stays the name.
        data['grid']['01-x'][SMP.name]['results'] = {'s.c.known 6.1: x': ('PASS', '')}
        case = render.junit(data, SMP.name).getroot().findall('.//testcase')[-2]
        self.assertEqual((case.get('classname'), case.get('name')), ('s.c', 'known 6.1: x'))
        ET.tostring(suites)
        # junit/report.xml: the verdict, a failure naming every problem and difference (the
        # report's sections' too: a flaky case is no test of a target's file).
        data['problems'] = ['repeat x86_64-smp: flaky']
        paths = render.write(data, self.tmp.name)
        verdict = ET.parse(paths[-1]).getroot()
        self.assertEqual(os.path.basename(paths[-1]), 'report.xml')
        self.assertEqual((verdict.get('failures'), verdict.find('.//failure').get('message')),
                         ('1', render.verdict_line(data)))
        self.assertIn('repeat x86_64-smp: flaky', verdict.find('.//failure').text)
        self.assertEqual(verdict.find('.//testcase').get('classname'), SMP.name)
        # A harness failure (exit 2) is an error.
        data['problems'] = ['01-x x86_64-smp: harness failure: x']
        verdict = ET.parse(render.write(data, self.tmp.name)[-1]).getroot()
        self.assertEqual((verdict.get('errors'), verdict.get('failures')), ('1', '0'))
        self.assertIn('harness failure: x', verdict.find('.//error').text)
        data['verdict'] = 'GREEN'
        self.assertIsNone(ET.parse(render.write(data, self.tmp.name)[-1]).find('.//failure'))

    def test_squares_with_a_problem_read_red(self):
        """A build with a problem (here no baseline build) starts with RED. In JUnit a step held
        against a baseline that is not green is a failure (the kernel's), as is a failed test,
        with its log lines; only what the harness could not run or judge is an error."""
        self.put(LEAN, '01-x')
        self.assertTrue(render.text(self.judged([LEAN])['grid']['01-x'][LEAN.name])
                        .startswith('**RED** 0 warning(s)'))
        self.put(SMP, config.BASELINE, 'fail')
        self.put(SMP, '01-x')
        data = self.judged([SMP])
        data.update(steps=STEPS)
        self.assertEqual(data['grid']['01-x'][SMP.name]['status'], judge.BASE_RED)
        suites = render.junit(data, SMP.name).getroot()
        self.assertEqual(suites.findall('.//error'), [])
        failures = suites.findall(".//testcase[@name='kernel']/failure")
        self.assertEqual([e.get('message') for e in failures], ['baseline not green'])
        failed = suites.find(".//testcase[@name='runtime 1024, 1 << DL_SCALE']/failure")
        self.assertEqual(failed.get('message'), 'FAIL')
        self.assertIn('flags=0x0 runtime=1024 deadline=1000000 period=10000000', failed.text)
        # A kernel splat or a time-out is the kernel's: a failure, with the splat's lines.
        grid = data['grid']['01-x'][SMP.name]
        grid.update(problems=['kernel splat: 1 line(s), first: BUG: x', 'QEMU timed out'],
                    excerpt=['BUG: x at y'], status=judge.SAME)
        case = render.junit(data, SMP.name).getroot().findall(".//testcase[@name='kernel']")[-1]
        self.assertEqual(case.find('failure').text.splitlines(), [
            'kernel splat: 1 line(s), first: BUG: x', 'QEMU timed out', 'BUG: x at y'])
        # What the harness could not run or judge is an error.
        grid.update(problems=['harness failure: no QEMU'], excerpt=[])
        case = render.junit(data, SMP.name).getroot().findall('.//testcase')[-1]
        self.assertEqual((case.get('name'), case.find('error').get('message')),
                         ('harness', 'harness failure: no QEMU'))


if __name__ == '__main__':
    unittest.main()
