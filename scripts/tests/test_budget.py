# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/budget.py."""

import contextlib
import io
import json
import os
import tempfile
import unittest
import unittest.mock

import budget

STEPS = ['00-baseline', '01-a', '02-b', '03-c']
CELLS = ['x86_64-smp', 'x86_64-up', 'arm-smp', 'arm-up']
BUILDS = ['lean-smp', 'lean-up']


def plan(elapsed, limit=60 * 60):
    return budget.make_plan(elapsed, limit, STEPS, CELLS, BUILDS,
                            ['x86_64-smp', 'arm-up'], 56, 16)


class PlanTest(unittest.TestCase):

    def test_warm_machine_runs_everything(self):
        p = plan(elapsed=180)
        self.assertEqual(p['mode'], 'full')
        self.assertEqual(p['mutants'], 'all')
        self.assertEqual(p['cells']['arm-smp'], STEPS)
        self.assertEqual(p['builds']['lean-up'], STEPS)
        # 3 more steps: 12 cell steps, 6 build steps, 56 mutants.
        self.assertEqual(p['estimate_seconds'], 180 + 12 * budget.CELL_STEP +
                         6 * budget.BUILD_STEP + budget.MUTANTS_SETUP + 56 * budget.MUTANT)

    def test_cold_machine_gets_the_reduced_plan(self):
        p = plan(elapsed=35 * 60)
        self.assertEqual(p['mode'], 'reduced')
        self.assertEqual(p['mutants'], 'subset')
        self.assertEqual(p['cells']['x86_64-smp'], STEPS)
        self.assertEqual(p['cells']['arm-up'], STEPS)
        self.assertEqual(p['cells']['x86_64-up'], ['00-baseline', '03-c'])
        self.assertEqual(p['builds']['lean-smp'], ['00-baseline', '03-c'])
        # 3 + 3 + 1 + 1 cell steps, 2 build steps, 16 mutants.
        self.assertEqual(p['estimate_seconds'], 35 * 60 + 8 * budget.CELL_STEP +
                         2 * budget.BUILD_STEP + budget.MUTANTS_SETUP + 16 * budget.MUTANT)
        self.assertEqual(p['warning'], '')
        self.assertIn('16 of 56 mutants', p['left'])
        self.assertIn('x86_64-smp and arm-up', p['left'])

    def test_boundary(self):
        rest = (12 * budget.CELL_STEP + 6 * budget.BUILD_STEP + budget.MUTANTS_SETUP +
                56 * budget.MUTANT)
        self.assertEqual(plan(elapsed=3600 - rest)['mode'], 'full')
        self.assertEqual(plan(elapsed=3600 - rest + 1)['mode'], 'reduced')

    def test_reduced_plan_over_budget_says_so(self):
        p = plan(elapsed=80 * 60, limit=75 * 60)
        self.assertEqual(p['mode'], 'reduced')
        self.assertIn('over the 75 min budget', p['warning'])

    def test_full_cells_must_be_cells(self):
        with self.assertRaisesRegex(budget.BudgetError, 'must be cells of the matrix'):
            budget.make_plan(0, 60, STEPS, CELLS, BUILDS, ['x86-renamed'], 1, 1)

    def test_baseline_only_series(self):
        p = budget.make_plan(9999, 60, ['00-baseline'], CELLS, [], ['x86_64-smp'], 3, 1)
        self.assertEqual(p['cells']['arm-smp'], ['00-baseline'])


class FilterTest(unittest.TestCase):

    def test_keep(self):
        p = plan(elapsed=35 * 60)
        self.assertTrue(budget.keep(p, '01-a', 'x86_64-smp'))
        self.assertFalse(budget.keep(p, '01-a', 'x86_64-up'))
        self.assertTrue(budget.keep(p, '03-c', 'lean-up'))
        self.assertFalse(budget.keep(p, '02-b', 'lean-up'))
        self.assertTrue(budget.keep(p, '02-b', 'not-in-the-plan'))

    def test_main_filter_and_get(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'plan.json')
            with open(path, 'w', encoding='utf-8') as f:
                json.dump(plan(elapsed=35 * 60), f)
            out = io.StringIO()
            stdin = io.StringIO('01-a x86_64-up run-cell.sh\n01-a arm-up run-cell.sh\n')
            with contextlib.redirect_stdout(out), unittest.mock.patch('sys.stdin', stdin):
                budget.main(['filter', path])
            self.assertEqual(out.getvalue(), '01-a arm-up run-cell.sh\n')
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                budget.main(['get', path, 'mutants'])
            self.assertEqual(out.getvalue(), 'subset\n')
            with self.assertRaises(budget.BudgetError):
                budget.main(['get', os.path.join(d, 'none.json'), 'mutants'])


if __name__ == '__main__':
    unittest.main()
