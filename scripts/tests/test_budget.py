# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/budget.py."""

import contextlib
import io
import json
import os
import subprocess
import tempfile
import unittest
import unittest.mock

import budget

STEPS = ['00-baseline', '01-a', '02-b', '03-c']
CELLS = ['x86_64-smp', 'x86_64-up', 'arm-smp', 'arm-up']
BUILDS = ['lean-smp', 'lean-up']
TINY = ['x86_64-tiny']
FULL = {'x86_64-smp': 300, 'x86_64-up': 300, 'arm-smp': 200, 'arm-up': 200,
        'lean-smp': 300, 'lean-up': 300, 'x86_64-tiny': 100, 'upstream': 200}


def header_step(name, a, b):
    """03-c edits a header every object includes; the others one file."""
    return 1.0 if '03-c' in (a, b) else 0.0


def matrix(frac=header_step, tiny_steps=('02-b', '03-c'), full=None):
    return budget.Matrix(STEPS, CELLS, BUILDS, TINY, list(tiny_steps),
                         ['x86_64-smp', 'arm-up'], 56, 16, FULL if full is None else full,
                         frac, 'upstream')


def plan(elapsed, limit=60 * 60, **kw):
    return budget.make_plan(elapsed, limit, matrix(**kw))


C, B, S, M, U = (budget.CELL_STEP, budget.BUILD_STEP, budget.SCHED_ONLY, budget.MUTANT,
                 budget.MUTANTS_SETUP)
# The reduced plan with FULL and header_step: the last step everywhere (4
# full rebuilds, 1000 s, + 4 * C), the builds' kernel/sched/ (2 * S),
# x86_64-smp and arm-up at 01 and 02 (4 * C), 16 mutants (U + 16 * M).
CORE = 1000 + 8 * C + 2 * S + U + 16 * M


class CostTest(unittest.TestCase):

    def test_run_cost_counts_what_a_step_rebuilds(self):
        m = matrix()
        # 01 and 02 rebuild nothing outside kernel/sched/, 03 everything.
        self.assertEqual(m.run_cost('x86_64-up', '00-baseline', STEPS), 3 * C + 300)
        self.assertEqual(m.run_cost('x86_64-up', '00-baseline', ['00-baseline', '02-b']), C)
        # From the last step back to 02 (the tiny cells): a full rebuild.
        self.assertEqual(m.run_cost('x86_64-tiny', '03-c', ['02-b', '03-c']), C + 100)

    def test_build_cost(self):
        m = matrix()
        sched = budget.SCHED
        self.assertEqual(m.build_cost('lean-up', {'00-baseline': sched}), 0)
        self.assertEqual(m.build_cost('lean-up', {'00-baseline': sched, '03-c': sched}), S)
        # The first full build builds every object.
        self.assertEqual(m.build_cost('lean-up', {'00-baseline': sched, '01-a': 'vmlinux'}),
                         B + 300)
        self.assertEqual(m.build_cost('lean-up', {s: 'vmlinux' for s in STEPS[1:]}),
                         B + 300 + B + B + 300)

    def test_unmeasured_build_counts_as_cold(self):
        m = matrix(full={})
        self.assertEqual(m.run_cost('arm-smp', '00-baseline', ['03-c']),
                         C + budget.UNMEASURED)


class PlanTest(unittest.TestCase):

    def test_warm_machine_runs_everything(self):
        p = plan(elapsed=180, limit=10 * 3600)
        self.assertEqual(p['mode'], 'full')
        self.assertEqual(p['mutants'], 'all')
        self.assertTrue(p['upstream'])
        self.assertEqual(p['cells']['arm-smp'], STEPS)
        self.assertEqual(p['builds']['lean-up'], STEPS)
        self.assertEqual(p['sched_only']['lean-up'], ['00-baseline'])
        self.assertEqual(p['tiny'], ['02-b', '03-c'])
        self.assertEqual(p['left'], '')
        self.assertEqual(p['estimate_seconds'], 180 + sum(c for _, c in p['costs']))

    def test_cold_machine_takes_what_fits_in_order(self):
        # CORE, and 100 s are left: too few for the upstream-form tests
        # (C + 200) or the tiny cells at 02 (C + 100).
        p = plan(elapsed=3600 - CORE - 100)
        self.assertEqual(p['cells']['x86_64-smp'], STEPS)
        self.assertEqual(p['cells']['x86_64-up'], ['00-baseline', '03-c'])
        self.assertEqual(p['builds']['lean-smp'], ['00-baseline', '03-c'])
        self.assertEqual(p['sched_only']['lean-smp'], ['00-baseline', '03-c'])
        self.assertEqual(p['mutants'], 'subset')
        self.assertEqual(p['estimate_seconds'], 3600 - 100)
        self.assertFalse(p['upstream'])
        self.assertEqual(p['tiny'], ['03-c'])
        self.assertEqual(p['warning'], '')
        self.assertIn('the 16 mutants of kunit/mutants/ci-subset', p['taken'])
        self.assertIn('leaves the upstream-form tests;', p['left'])

    def test_a_smaller_item_after_one_that_does_not_fit(self):
        # Nothing of 01-03 rebuilds outside kernel/sched/: the upstream-form
        # tests (C + 200) fit where the tiny cells (C) also fit.
        p = plan(elapsed=60 * 60 - (4 * C + 2 * S + 4 * C + U + 16 * M + C),
                 frac=lambda *a: 0.0)
        self.assertFalse(p['upstream'])
        self.assertEqual(p['tiny'], ['02-b', '03-c'])

    def test_the_last_step_everywhere_runs_even_over_budget(self):
        p = plan(elapsed=80 * 60, limit=75 * 60)
        self.assertEqual(p['mode'], 'reduced')
        self.assertEqual(p['cells']['arm-smp'], ['00-baseline', '03-c'])
        self.assertEqual(p['mutants'], 'none')
        self.assertIn('over the 75 min budget', p['warning'])

    def test_full_cells_must_be_cells(self):
        with self.assertRaisesRegex(budget.BudgetError, 'must be cells of the matrix'):
            budget.Matrix(STEPS, CELLS, BUILDS, TINY, [], ['x86-renamed'], 1, 1, {},
                          header_step)

    def test_baseline_only_series(self):
        p = budget.make_plan(9999, 60, budget.Matrix(['00-baseline'], CELLS, [], [], [],
                                                     ['x86_64-smp'], 3, 1, {}, header_step))
        self.assertEqual(p['cells']['arm-smp'], ['00-baseline'])


class RebuiltTest(unittest.TestCase):
    """Which objects a change rebuilds, from kbuild's command files."""

    def test_share_of_objects(self):
        with tempfile.TemporaryDirectory() as d:
            tree = os.path.join(d, 'linux')
            os.makedirs(os.path.join(tree, 'include'))
            os.makedirs(os.path.join(tree, 'kernel'))

            def commit(path, text):
                with open(os.path.join(tree, path), 'w', encoding='utf-8') as f:
                    f.write(text)
                subprocess.run(['git', '-C', tree, 'add', '-A'], check=True)
                subprocess.run(['git', '-C', tree, '-c', 'user.name=t', '-c',
                                'user.email=t@t', 'commit', '-qm', path], check=True)
                return subprocess.run(['git', '-C', tree, 'rev-parse', 'HEAD'], check=True,
                                      capture_output=True, text=True).stdout.strip()

            subprocess.run(['git', 'init', '-q', tree], check=True)
            s0 = commit('include/a.h', '1')
            s1 = commit('kernel/x.c', '1')
            s2 = commit('include/a.h', '2')
            out = os.path.join(d, 'build')
            os.makedirs(os.path.join(out, 'kernel'))
            # As ccache's base_dir leaves them: relative to the build folder.
            for name, deps in (('x', 'kernel/x.c include/a.h'), ('y', 'kernel/y.c'),
                               ('z', 'kernel/z.c include/a.h'), ('w', 'kernel/w.c')):
                with open(os.path.join(out, 'kernel', f'.{name}.o.cmd'), 'w',
                          encoding='utf-8') as f:
                    f.write(''.join(f'  ../linux/{p} \\\n' for p in deps.split()))
            steps = ['00', '01', '02']
            r = budget.Rebuilt(tree, dict(zip(steps, (s0, s1, s2))), steps, {'c': out})
            self.assertEqual(r('c', '00', '01'), 0.25)
            self.assertEqual(r('c', '01', '02'), 0.5)
            self.assertEqual(r('c', '02', '00'), 0.5)
            self.assertEqual(r('no-folder', '00', '01'), 1.0)


class FilterTest(unittest.TestCase):

    def test_keep(self):
        p = plan(elapsed=3600 - CORE - 100)
        self.assertTrue(budget.keep(p, '01-a', 'x86_64-smp'))
        self.assertFalse(budget.keep(p, '01-a', 'x86_64-up'))
        self.assertTrue(budget.keep(p, '03-c', 'lean-up'))
        self.assertFalse(budget.keep(p, '02-b', 'lean-up'))
        self.assertTrue(budget.keep(p, '02-b', 'not-in-the-plan'))

    def test_main_filter_and_get(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'plan.json')
            with open(path, 'w', encoding='utf-8') as f:
                json.dump(plan(elapsed=3600 - CORE - 100), f)
            out = io.StringIO()
            stdin = io.StringIO('01-a x86_64-up run-cell.sh\n01-a arm-up run-cell.sh\n'
                                '03-c lean-up build-only.sh\n')
            with contextlib.redirect_stdout(out), unittest.mock.patch('sys.stdin', stdin):
                budget.main(['filter', path])
            self.assertEqual(out.getvalue(), '01-a arm-up run-cell.sh\n'
                             '03-c lean-up build-only.sh --sched-only\n')
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                budget.main(['get', path, 'tiny'])
            self.assertEqual(out.getvalue(), '03-c\n')
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                budget.main(['get', path, 'mutants'])
            self.assertEqual(out.getvalue(), 'subset\n')
            with self.assertRaises(budget.BudgetError):
                budget.main(['get', os.path.join(d, 'none.json'), 'mutants'])


class ReliabilityItemsTest(unittest.TestCase):
    """The repeats and the debug cells in the plan."""

    def matrix(self, debug=None, full=None):
        return budget.Matrix(STEPS, CELLS, BUILDS, TINY, ['02-b', '03-c'],
                             ['x86_64-smp', 'arm-up'], 56, 16, full or FULL, header_step,
                             'upstream', debug if debug is not None else
                             {'x86_64-smp-sanitize': '', 'arm-up-sanitize': '03-c'},
                             repeat=5, repeat_boots=12)

    def test_costs(self):
        m = self.matrix(full=dict(FULL, **{'arm-up-sanitize': 500}))
        empty = budget.empty_plan(m)
        self.assertEqual(m.estimate(dict(empty, repeat=5)) - m.estimate(empty),
                         5 * 12 * budget.REPEAT_BOOT)
        # x86_64-smp-sanitize has no kernel yet: a full build, unmeasured;
        # arm-up-sanitize holds the last step already: the fixed part.
        self.assertEqual(m.estimate(dict(empty, debug=['03-c'])) - m.estimate(empty),
                         4 * C + budget.UNMEASURED_DEBUG)

    def test_everything_fits(self):
        p = budget.make_plan(0, 10 * 3600, self.matrix())
        self.assertEqual(p['mode'], 'full')
        self.assertEqual(p['repeat'], 5)
        self.assertEqual(p['debug'], ['03-c'])

    def test_repeats_come_early_the_debug_cells_after_the_subset(self):
        m = self.matrix()
        names = [d for d, _ in m.items()]
        self.assertEqual(names[2], '5 boots per variant of every cell at the last step (flakes)')
        self.assertLess(names.index('the 16 mutants of kunit/mutants/ci-subset'),
                        names.index('the debug cells (x86_64-smp-sanitize, arm-up-sanitize) '
                                    'at the last step'))
        # Room for the core and the repeats, not for a cold debug build.
        p = budget.make_plan(0, CORE + 5 * 12 * budget.REPEAT_BOOT + 60, m)
        self.assertEqual(p['repeat'], 5)
        self.assertEqual(p['debug'], [])
        self.assertIn('the debug cells (x86_64-smp-sanitize, arm-up-sanitize) at the last '
                      'step', p['left'])
        # The repeats are taken even when nothing but the last step fits.
        p = budget.make_plan(0, 60, m)
        self.assertEqual(p['repeat'], 5)
        self.assertIn('5 boots per variant of every cell at the last step (flakes)',
                      p['taken'])
        self.assertNotIn('the build-only configurations at the last step, kernel/sched/ only',
                         p['taken'])

    def test_no_debug_cells_no_item(self):
        m = self.matrix(debug={})
        self.assertFalse(any('debug' in d for d, _ in m.items()))


if __name__ == '__main__':
    unittest.main()
