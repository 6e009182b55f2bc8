# SPDX-License-Identifier: GPL-2.0
"""Tests of sched_tinify/mutants.py: the mutants' headers, where each one
runs, what killed means, the summary, and the planted bugs' checks."""

import importlib
import json
import os
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from sched_tinify import config, judge, mutants, run  # noqa: E402 pylint: disable=C0413

STEPS = [(f'{i:02d}-s', f'{i}' * 40) for i in range(4)]


def target(name, **kw):
    fields = dict(name=name, arch='arm', cross_compile='', compiler='gcc', console='ttyAMA0',
                  kunitconfig=('k',), cpus=1)
    fields.update(kw)
    return config.Target(**fields)


UP, SMP = target('arm-up'), target('arm-smp', cpus=4)
NODL = target('arm-nodl', needs='SCHED_CLASS_DL', expected='e')
NORT = target('arm-nort', needs='SCHED_CLASS_RT', expected='e')


class MutantsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def mutant(self, head):
        path = os.path.join(self.tmp.name, f'{len(os.listdir(self.tmp.name)):02d}-m.sed')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(head + 's/a/b/\n')
        return mutants.read(path)

    def test_project_mutants_read(self):
        every = mutants.expand([os.path.join(config.REPO, 'kunit', 'mutants', d) for d in
                                os.listdir(os.path.join(config.REPO, 'kunit', 'mutants'))
                                if d != 'ci-subset'])
        self.assertGreater(len(every), 50)
        subset = mutants.expand([os.path.join(config.REPO, 'kunit', 'mutants', 'ci-subset')])
        self.assertTrue({m.path for m in subset} <= {m.path for m in every})
        self.assertTrue(any(m.survive for m in every))
        # Results go under results/PKG/mutants/FOLDER/FILE, wherever the mutant lies.
        self.assertEqual(every[0].name, os.path.relpath(every[0].path[:-4], os.path.join(
            config.REPO, 'kunit', 'mutants')))
        self.assertEqual(self.mutant('# file: f\n# step: 01\n').name,
                         f'{os.path.basename(self.tmp.name)}/00-m')

    def test_folder_of_a_kernel(self):
        """--mutants when given, else the kernel's folder in ci/matrix.json; a kernel without
        one has no mutants."""
        with_folder = config.Kernel('p', 'v', 'patches', 'hook', mutants='kunit/mutants')
        without = config.Kernel('q', 'v', 'patches', 'hook')
        self.assertEqual(mutants.folder(None, with_folder),
                         os.path.join(config.REPO, 'kunit', 'mutants'))
        self.assertEqual(mutants.folder(None, without), '')
        self.assertEqual(mutants.folder(self.tmp.name, without), self.tmp.name)
        self.assertEqual(mutants.folders(''), [])
        self.assertEqual(config.kernels(config.load())[0].mutants, 'kunit/mutants')

    def test_list_suites_names_each_target_a_suite_has_a_mutant_for(self):
        """CI's mutants jobs: a (target, suite) pair only where one of the suite's mutants runs."""
        main = importlib.import_module('sched_tinify.__main__')
        for suite, head in (('a', '# cells: arm-up\n'), ('b', '# tiny: SCHED_CLASS_RT\n'),
                            ('c', '# tiny: SCHED_CLASS_DL\n# tiny cells: arm-nodl\n')):
            os.mkdir(os.path.join(self.tmp.name, suite))
            with open(os.path.join(self.tmp.name, suite, '01-m.sed'), 'w',
                      encoding='utf-8') as f:
                f.write(f'# file: kernel/sched/core.c\n# step: 00\n{head}s/a/b/\n')
        with mock.patch('sys.stdout') as out:
            self.assertEqual(main.main(['list', '--kinds', 'cell,tiny', '--suites', '--kernel',
                                        'linux-source-6.1', '--mutants', self.tmp.name]), 0)
        self.assertEqual(''.join(c.args[0] for c in out.write.mock_calls).split('\n'),
                         ['arm-up a', 'arm-nodl c', 'x86_64-nort b', 'arm-nort b', ''])
        # Without --mutants, each kernel's own folder.
        with mock.patch('sys.stdout') as out:
            self.assertEqual(main.main(['list', '--kinds', 'cell', '--suites', '--json']), 0)
        rows = json.loads(''.join(c.args[0] for c in out.write.mock_calls))
        self.assertEqual({(r['kernel'], os.path.dirname(r['folder'])) for r in rows}, {
            (k.package, k.mutants) for k in config.kernels(config.load())})

    def test_read(self):
        m = self.mutant('# file: kernel/sched/core.c\n# step: 01\n# until: 02\n'
                        '# cells: arm-up\n# expect: survive: why\n')
        self.assertEqual((m.file, m.first, m.until, m.cells, m.survive),
                         ('kernel/sched/core.c', 1, 2, ['arm-up'], True))
        with self.assertRaisesRegex(config.ConfigError, 'no "# step:" line'):
            self.mutant('# file: x\n')

    def test_plan(self):
        # Every tiny cell's option exists at the last two steps only.
        has = lambda tree, sha: {t.needs for t in (NODL, NORT)} if sha in (  # noqa: E731
            STEPS[2][1], STEPS[3][1]) else set()
        cases = [
            ('every cell, first and last', '# file: f\n# step: 01\n', False,
             [('arm-up', '01-s'), ('arm-up', '03-s'), ('arm-smp', '01-s'), ('arm-smp', '03-s')]),
            ('until', '# file: f\n# step: 00\n# until: 01\n', False,
             [('arm-up', '00-s'), ('arm-up', '01-s'), ('arm-smp', '00-s'), ('arm-smp', '01-s')]),
            ('last only, one cell', '# file: f\n# step: 01\n# cells: arm-smp\n', True,
             [('arm-smp', '03-s')]),
            ('a tiny mutant', '# file: f\n# step: 02\n# tiny: SCHED_CLASS_DL\n', False,
             [('arm-nodl', '02-s'), ('arm-nodl', '03-s')]),
            ('a cells\' mutant in a tiny cell, from its option on',
             '# file: f\n# step: 00\n# cells: arm-up\n# tiny cells: arm-nort\n', False,
             [('arm-up', '00-s'), ('arm-up', '03-s'), ('arm-nort', '02-s'), ('arm-nort', '03-s')]),
        ]
        work = run.Work('pkg', '/nonexistent', '/nonexistent')
        for what, head, last_only, want in cases:
            with self.subTest(what), mock.patch.object(run, 'options', has):
                got = mutants.plan(work, [self.mutant(head)], [UP, SMP, NODL, NORT], STEPS,
                                   last_only)
                self.assertEqual([(t.name, s) for _, t, s, _ in got], want)
        with self.assertRaisesRegex(config.ConfigError, 'not those of the series'):
            mutants.plan(work, [self.mutant('# file: f\n# step: 07\n')], [UP], STEPS, False)

    def test_plan_moves_each_build_folder_once_a_step(self):
        """Target by target, step by step: not mutant by mutant, which
        moves a folder between the first and the last step each time."""
        work = run.Work('pkg', '/nonexistent', '/nonexistent')
        two = [self.mutant('# file: f\n# step: 01\n'), self.mutant('# file: g\n# step: 01\n')]
        got = mutants.plan(work, two, [UP, SMP], STEPS, False)
        self.assertEqual([(m.file, t.name, s) for m, t, s, _ in got],
                         [('f', 'arm-up', '01-s'), ('g', 'arm-up', '01-s'),
                          ('f', 'arm-up', '03-s'), ('g', 'arm-up', '03-s'),
                          ('f', 'arm-smp', '01-s'), ('g', 'arm-smp', '01-s'),
                          ('f', 'arm-smp', '03-s'), ('g', 'arm-smp', '03-s')])

    def test_a_control_that_failed_is_not_run_again(self):
        """A baseline or control that ends in a harness failure is tried
        once a run, not once for each mutant that needs it; a mutant whose
        control cannot judge it is not built."""
        work = run.Work('pkg', '/nonexistent', self.tmp.name, '/nonexistent/steps')
        two = [self.mutant('# file: f\n# step: 01\n'), self.mutant('# file: g\n# step: 01\n')]
        runs = []
        for why, want in (('', [('arm-up', '00-s', False), ('arm-up', '03-s', False),
                                ('arm-up', '03-s', True), ('arm-up', '03-s', True)]),
                          # A control that cannot judge: no mutant is built.
                          ('the control is red', [('arm-up', '00-s', False),
                                                  ('arm-up', '03-s', False)])):
            runs.clear()
            self.run_both(work, two, why, runs)
            self.assertEqual(runs, want, why)
        # A run that failed (harness failure, red), or one that was killed.
        for judged, rc in (('invalid (harness failure: a dirty tree)', 2),
                           ('invalid (the control is harness failure)', 2),
                           ('invalid (build failed: x)', 1), ('killed', 0)):
            with self.subTest(judged):
                self.assertEqual(self.run_both(work, two, '', [], judged)[0], rc)

    @staticmethod
    def run_both(work, two, why, runs, judged='invalid'):
        main = importlib.import_module('sched_tinify.__main__')
        args = mock.Mock(paths=[], last_only=True)
        with mock.patch.object(mutants, 'expand', return_value=two), \
                mock.patch.object(mutants, 'control_problem', return_value=why), \
                mock.patch.object(config, 'read_steps', return_value=STEPS), \
                mock.patch.object(run, 'kept', return_value=False), \
                mock.patch.object(run, 'run', lambda w, t, s, *a, overlay=None, **k:
                                  runs.append((t.name, s, overlay is not None))), \
                mock.patch.object(mutants, 'judge_one', return_value=(judged, '')), \
                mock.patch.object(config, 'write'), mock.patch('sys.stdout'):
            return main.cmd_mutants(args, work, [UP], STEPS, None)

    def test_verdict(self):
        m = self.mutant('# file: f\n# step: 00\n')

        def e(status, differences=(), problems=()):
            return {'status': status, 'differences': list(differences),
                    'problems': list(problems), 'failures': []}
        cases = [
            (e(judge.DIFFERS, ['changed: x']), 'killed'),
            (e(judge.SAME), 'survived'),
            (e(judge.SAME, problems=['kernel splat']), 'invalid (red without a difference)'),
            (e(judge.NOT_EXPECTED, ['changed: y']), 'killed'),
            (e(judge.AS_EXPECTED), 'survived'),
            # A tiny cell's run red for a time-out, with the expected results: not killed.
            (e(judge.NOT_EXPECTED, problems=['QEMU timed out']),
             'invalid (red without a difference)'),
            (e(judge.BUILD_FAILED, problems=['build failed: see x']), 'invalid (build failed: '
                                                                     'see x)'),
            (e(judge.LEFT), 'invalid (left)'),
        ]
        for entry, want in cases:
            with self.subTest(want):
                self.assertEqual(mutants.verdict(m, UP, entry), want)

    def test_a_control_that_failed_is_a_harness_failure(self):
        """A control (a tiny cell's too) that the harness failed makes its mutants a harness
        failure, before a leftover result of the mutant is called stale."""
        work = run.Work('pkg', '/nonexistent', self.tmp.name, '/nonexistent/steps')
        m = self.mutant('# file: f\n# step: 00\n')

        def entry(*_, want=None):  # the mutant's result is stale, its control a failure
            return {'status': judge.STALE if want else judge.HARNESS, 'failures': [],
                    'problems': ['harness failure: x'], 'results': {}, 'differences': []}
        for t in (UP, NODL):
            with self.subTest(t.name), mock.patch.object(judge, 'entry', entry), \
                    mock.patch.object(judge, 'read_expected', return_value={}), \
                    mock.patch.object(mutants, 'inputs', return_value={'mutant': 'm'}):
                self.assertEqual(mutants.control_problem(work, None, t, *STEPS[0]),
                                 'the control is harness failure')
                self.assertEqual(mutants.judge_one(work, None, m, t, *STEPS[0], {}),
                                 ('invalid (the control is harness failure)', ''))

    def test_summary(self):
        killed = self.mutant('# file: f\n# step: 00\n')
        survive = self.mutant('# file: f\n# step: 00\n# expect: survive: why\n')
        rows = [(killed, UP, '00-s', 'killed', 'changed: a|b'),
                (killed, SMP, '00-s', 'survived', ''),
                (survive, UP, '00-s', 'survived', '')]
        lines, bad = mutants.summary(rows)
        self.assertEqual(bad, [f'mutant {killed.name} in arm-smp at 00: survived, not killed'])
        self.assertEqual(lines[:2], ['- arm-up: 1 of 1 mutant runs killed',
                                     '- arm-smp: 0 of 1 mutant runs killed'])
        self.assertIn('changed: a\\|b', lines[-3])
        self.assertEqual(mutants.summary(rows[:1] + rows[2:])[1], [])

    def test_planted(self):
        lines = [
            'UBSAN: shift-out-of-bounds in kernel/sched/debug_selfcheck.c:10:5\n',
            'WARNING: CPU: 0 PID: 1 at lib/debugobjects.c:505 debug_print_object+0x1\n',
            'ODEBUG: init active (active state 0) object type: timer_list hint: '
            'selfcheck_timer_fn+0x0\n',
            'BUG: KASAN: use-after-free in debug_selfcheck_planted+0x1/0x2\n',
            'unreferenced object 0xffff (size 128):\n',
            '  comm "swapper/0", pid 1, jiffies 1\n',
            '    [<0>] debug_selfcheck_planted+0x1/0x2\n',
            'kmemleak-init: done: 1 leak\n',
        ]
        self.assertEqual([ok for _, ok, _ in mutants.planted(lines)], [True] * 5)
        got = mutants.planted([line for line in lines if 'KASAN' not in line])
        self.assertEqual([name for name, ok, _ in got if not ok], ['KASAN', 'report'])
        # A leak of early boot (pid 0, start_kernel) is not the planted one.
        boot = lines[:5] + ['  comm "swapper/0", pid 0, jiffies 1\n',
                            '    [<0>] debug_selfcheck_planted+0x1/0x2\n',
                            '    [<0>] start_kernel+0x1/0x2\n', lines[-1]]
        self.assertEqual([name for name, ok, _ in mutants.planted(boot) if not ok], ['kmemleak'])


if __name__ == '__main__':
    unittest.main()
