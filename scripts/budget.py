#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plan what the test command can run within its time budget.

scripts/test.sh runs the baseline in every cell and build-only
configuration first: that is where cold build folders and a cold ccache
cost (4 to 12 minutes a build on 2 cores), and it is measured, not
guessed. Then it asks this tool for the rest: the full run if the time
spent so far plus the estimate of the rest fits the budget, else the
reduced plan: every step in one SMP and one UP cell, the baseline and the
last step in the other cells and build-only configurations, and the fixed
subset of mutants in kunit/mutants/ci-subset. The main job
(scripts/matrix.sh, scripts/mutants.sh kunit/mutants/*/) keeps everything.

Usage:
  budget.py plan --elapsed S --budget S --steps A,B,.. --cells A,B,..
                 --builds A,B,.. --full-cells SMP,UP --mutants N --subset N
      the plan as JSON on stdout, the decision in one line on stderr
  budget.py filter PLAN
      standard input: "STEP NAME ..." lines; prints those PLAN keeps
  budget.py get PLAN KEY
      one top-level value of PLAN (e.g. mutants: "all" or "subset")

Errors go to stderr with exit status 2.
"""

import argparse
import json
import sys
from typing import Dict, List

# Seconds one more step costs once the build folders exist (kernel/sched
# changed, ccache warm for the rest). README.rst "Measured" has the
# figures on the project's 2-core machine (10-25 s a cell step, 14-22 s a
# build-only step, 14-20 s a mutant step); these are about twice that,
# for a loaded machine. MUTANTS_SETUP: what scripts/mutants.sh spends
# besides its steps (the tree prepared twice, the baseline built again).
CELL_STEP, BUILD_STEP, MUTANT, MUTANTS_SETUP = 45, 60, 40, 120


class BudgetError(Exception):
    """Bad arguments or plan."""


def estimate(runs: Dict[str, List[str]], builds: Dict[str, List[str]], mutants: int,
             done: str) -> int:
    """Seconds for what is planned beyond the step DONE already ran."""
    cells = sum(len([s for s in steps if s != done]) for steps in runs.values())
    more = sum(len([s for s in steps if s != done]) for steps in builds.values())
    return cells * CELL_STEP + more * BUILD_STEP + MUTANTS_SETUP + mutants * MUTANT


def make_plan(elapsed: int, budget: int, steps: List[str], cells: List[str],
              builds: List[str], full_cells: List[str], mutants: int,
              subset: int) -> dict:
    unknown = [c for c in full_cells if c not in cells]
    if unknown or not full_cells:
        raise BudgetError(f'the cells to run in full ({", ".join(full_cells)}) must be '
                          f'cells of the matrix ({", ".join(cells)})')
    base, last = steps[0], steps[-1]
    ends = [base] if last == base else [base, last]
    full = {c: list(steps) for c in cells}
    full_builds = {b: list(steps) for b in builds}
    need = elapsed + estimate(full, full_builds, mutants, base)
    if need <= budget:
        return {'mode': 'full', 'cells': full, 'builds': full_builds, 'mutants': 'all',
                'estimate_seconds': need, 'budget_seconds': budget, 'left': '', 'warning': ''}
    cells_plan = {c: list(steps) if c in full_cells else list(ends) for c in cells}
    builds_plan = {b: list(ends) for b in builds}
    reduced = elapsed + estimate(cells_plan, builds_plan, subset, base)
    # Nothing smaller proves the series: run it, and say that it may not fit.
    warning = '' if reduced <= budget else \
        (f'even the reduced plan is estimated at {reduced // 60} min, over the '
         f'{budget // 60} min budget')
    return {
        'mode': 'reduced', 'cells': cells_plan, 'builds': builds_plan, 'mutants': 'subset',
        'estimate_seconds': reduced, 'budget_seconds': budget, 'warning': warning,
        'left': (f'the full run was estimated at {need // 60} min, over the '
                 f'{budget // 60} min budget, after {elapsed // 60} min of set-up and '
                 f'baseline builds (cold build folders or ccache): every step runs in '
                 f'{" and ".join(full_cells)}, the baseline and {last} elsewhere, '
                 f'and {subset} of {mutants} mutants (kunit/mutants/ci-subset); '
                 f'scripts/matrix.sh and scripts/mutants.sh kunit/mutants/*/ run the rest'),
    }


def keep(plan: dict, step: str, name: str) -> bool:
    """Whether PLAN runs NAME (a cell or build) at STEP; unnamed ones run."""
    for kind in ('cells', 'builds'):
        if name in plan.get(kind, {}):
            return step in plan[kind][name]
    return True


def load(path: str) -> dict:
    try:
        with open(path, encoding='utf-8') as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise BudgetError(f'cannot read the plan {path}: {e}') from e


def main(argv: List[str]) -> int:
    if argv[:1] == ['filter'] and len(argv) == 2:
        plan = load(argv[1])
        for line in sys.stdin:
            parts = line.split()
            if len(parts) >= 2 and keep(plan, parts[0], parts[1]):
                sys.stdout.write(line)
        return 0
    if argv[:1] == ['get'] and len(argv) == 3:
        print(load(argv[1]).get(argv[2], ''))
        return 0
    if argv[:1] != ['plan']:
        raise BudgetError(__doc__.strip())
    ap = argparse.ArgumentParser(prog='budget.py plan')
    for name in ('--elapsed', '--budget', '--mutants', '--subset'):
        ap.add_argument(name, type=int, required=True)
    for name in ('--steps', '--cells', '--builds', '--full-cells'):
        ap.add_argument(name, default='')
    args = ap.parse_args(argv[1:])

    def split(text):
        return [x for x in text.split(',') if x]

    steps = split(args.steps)
    if not steps:
        raise BudgetError('no steps')
    plan = make_plan(args.elapsed, args.budget, steps, split(args.cells),
                     split(args.builds), split(args.full_cells), args.mutants, args.subset)
    json.dump(plan, sys.stdout, indent=1)
    print()
    print(f'budget.py: {plan["mode"]} run, estimated {plan["estimate_seconds"] // 60} min '
          f'of a {args.budget // 60} min budget', file=sys.stderr)
    if plan['warning']:
        print(f'budget.py: WARNING: {plan["warning"]}', file=sys.stderr)
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except BudgetError as err:
        print(f'budget.py: {err}', file=sys.stderr)
        sys.exit(2)
