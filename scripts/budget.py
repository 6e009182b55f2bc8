#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plan what the test command can run within its time budget.

scripts/test.sh first runs what every plan needs and what measures the
machine: the baseline in every cell (full builds: with a cold ccache 3 to
6 minutes each on 2 cores), the build-only configurations' baseline
(kernel/sched/ only: what later steps' W=1 warnings are compared with) and
the tiny cells at the last step. Then it asks this tool for the rest.

The estimate of a step in a build folder is a fixed part (the run, the
link, kernel/sched/) plus the share of the folder's objects that the
change rebuilds, times the folder's measured full build: an object is
rebuilt when its kbuild dependency file (.NAME.o.cmd) names a file that
the change touches. So a step that edits include/linux/sched.h costs
about a full build, one that edits kernel/sched/core.c a few seconds, and
with a warm ccache the measured full build, and so the estimate, is small.
A build-only configuration is estimated with the folder and time of the
first cell of its architecture (its own folder has kernel/sched/ only).

The plan takes, in this order, what fits the budget (1 and 2b always):
  1. every cell at the last step;
  2. the build-only configurations at the last step, kernel/sched/ only;
  3. every step in the full cells (one SMP and one UP);
  2b. the repeats: every cell booted again at the last step, N times per
     variant (scripts/repeat.sh: flakes);
  4. the mutants of kunit/mutants/ci-subset;
  4b. the debug cells (sanitizers, kmemleak) at the last step;
  5. the upstream-form tests;
  6. the tiny cells at their other steps;
  7. the build-only configurations at the last step, full builds;
  8. every step in the other cells;
  9. every step in the build-only configurations, full builds;
 10. every mutant (and the tiny cells' mutants) instead of the subset.
All of it is the full run; anything left is named in the plan and the
report and runs in the main job (scripts/matrix.sh, scripts/mutants.sh
kunit/mutants/*/).

Usage:
  budget.py plan --elapsed S --budget S --steps-file F --tree DIR
                 --results DIR --build-root DIR --cells A,B --builds A,B
                 --tiny A,B --tiny-steps S1,S2 --full-cells SMP,UP
                 --upstream-cell CELL --mutants N --subset N
      the plan as JSON on stdout, the decision in one line on stderr
  budget.py filter PLAN
      standard input: "STEP NAME SCRIPT" lines; prints those PLAN keeps,
      with " --sched-only" added where it builds kernel/sched/ only
  budget.py get PLAN KEY
      one top-level value of PLAN (e.g. mutants: "all", "subset", "none";
      lists comma-separated)

Errors go to stderr with exit status 2.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
from typing import Callable, Dict, List, Optional, Set

import matrix

# Seconds: the fixed part of a cell step (QEMU run, link, kernel/sched/),
# of a build-only step (W=1 on kernel/sched/, link), of a kernel/sched/-only
# build, of a mutant, and what scripts/mutants.sh spends besides its steps
# (the tree prepared twice, the baseline built again from ccache).
# Measured on 2026-12-03: 10-42 s a cell step (a cold one the first in a
# folder), 14-22 s a build-only step, 15-20 s a cold kernel/sched/-only
# build, 19 mutants with their set-up in 493 s from a cold ccache (about
# 20 s each); these are about 1.5 to 2 times that, for a loaded machine.
CELL_STEP, BUILD_STEP, SCHED_ONLY, MUTANT, MUTANTS_SETUP = 45, 60, 45, 30, 120
# A boot of scripts/repeat.sh (kunit.py exec: QEMU and the parse; measured
# 1-4 s, loaded boots the longest), with room for a loaded machine.
REPEAT_BOOT = 8
# A full build when nothing was measured (a cold x86_64 build, rounded up).
UNMEASURED = 420
# A debug cell's full build when none was measured: KASAN and UBSAN make a
# cold build slower (measured: 288 s for x86_64-smp-sanitize
# from a cold ccache, 200 s for plain x86_64-smp); twice, for a loaded machine.
UNMEASURED_DEBUG = 2 * UNMEASURED
SCHED = 'kernel/sched'

Frac = Callable[[str, str, str], float]


class BudgetError(Exception):
    """Bad arguments or plan."""


class Matrix:
    """What can be run, and what it costs."""

    def __init__(self, steps: List[str], cells: List[str], builds: List[str],
                 tiny: List[str], tiny_steps: List[str], full_cells: List[str],
                 mutants: int, subset: int, full_seconds: Dict[str, int], frac: Frac,
                 upstream_cell: str = '', debug: Optional[Dict[str, str]] = None,
                 repeat: int = 0, repeat_boots: int = 0):
        """debug: the debug cells, each with the step its folder holds ('' when
        it has no kernel); repeat: boots per variant; repeat_boots: the
        variants of all cells together (boots per unit of repeat)."""
        unknown = [c for c in full_cells if c not in cells]
        if unknown or not full_cells:
            raise BudgetError(f'the cells to run in full ({", ".join(full_cells)}) must be '
                              f'cells of the matrix ({", ".join(cells)})')
        if not steps:
            raise BudgetError('no steps')
        self.steps, self.cells, self.builds = steps, cells, builds
        self.tiny, self.full_cells = tiny, full_cells
        self.tiny_steps = [s for s in steps if s in tiny_steps]
        self.mutants, self.subset = mutants, subset
        self.full_seconds, self.frac, self.upstream_cell = full_seconds, frac, upstream_cell
        self.base, self.last = steps[0], steps[-1]
        self.debug = debug or {}
        self.repeat, self.repeat_boots = repeat, repeat_boots
        self.must: Set[str] = set()

    def full(self, name: str) -> int:
        return self.full_seconds.get(name, UNMEASURED)

    def run_cost(self, name: str, start: str, todo: List[str]) -> int:
        """A cell's (or tiny cell's) steps @todo, in step order, in a folder
        left at @start."""
        cost, at = 0, start
        for s in sorted(todo, key=self.steps.index):
            if s == start:
                continue
            cost += CELL_STEP + round(self.full(name) * self.frac(name, at, s))
            at = s
        return cost

    def build_cost(self, name: str, scopes: Dict[str, str]) -> int:
        """A build-only configuration's steps (@scopes: step -> vmlinux or
        kernel/sched) after its kernel/sched/-only baseline: the first full
        build builds every object."""
        cost, at = 0, None
        for s in sorted(scopes, key=self.steps.index):
            if s == self.base and scopes[s] == SCHED:
                continue
            if scopes[s] == SCHED:
                cost += SCHED_ONLY
                continue
            cost += BUILD_STEP + (self.full(name) if at is None else
                                  round(self.full(name) * self.frac(name, at, s)))
            at = s
        return cost

    def estimate(self, plan: dict) -> int:
        cost = sum(self.run_cost(c, self.base, steps) for c, steps in plan['cells'].items())
        cost += sum(self.build_cost(b, scopes) for b, scopes in plan['builds'].items())
        cost += sum(self.run_cost(t, self.last, plan['tiny']) for t in self.tiny)
        if plan['upstream']:
            cost += CELL_STEP + self.full(self.upstream_cell)
        cost += plan.get('repeat', 0) * self.repeat_boots * REPEAT_BOOT
        for name, at in self.debug.items() if plan.get('debug') else []:
            full = self.full_seconds.get(name, UNMEASURED_DEBUG)
            # The step, then the self-check (a kernel/sched/ build and a boot).
            cost += 2 * CELL_STEP
            if not at:
                cost += full
            elif at != self.last:
                cost += round(full * self.frac(name, at, self.last))
        n = {'none': 0, 'subset': self.subset, 'all': self.mutants}[plan['mutants']]
        return cost + (MUTANTS_SETUP + n * MUTANT if n else 0)

    def items(self) -> List[tuple]:
        """(description, change to a plan), in the order of priority."""
        base, last, steps = self.base, self.last, self.steps
        others = [c for c in self.cells if c not in self.full_cells]
        tiny_more = [s for s in self.tiny_steps if s != last]

        def cells(names, which):
            def add(p):
                for c in names:
                    p['cells'][c] = sorted(set(p['cells'][c]) | set(which), key=steps.index)
            return add

        def builds(which, scope):
            def add(p):
                for b in self.builds:
                    for s in which:
                        if s != base and (scope != SCHED or s not in p['builds'][b]):
                            p['builds'][b][s] = scope
            return add

        def tiny(p):
            p['tiny'] = sorted(set(p['tiny']) | set(tiny_more), key=steps.index)

        def upstream(p):
            p['upstream'] = True

        def repeat(p):
            p['repeat'] = self.repeat

        def debug(p):
            p['debug'] = [last]

        def mutants(which):
            def add(p):
                p['mutants'] = which
            return add

        last_everywhere = cells(self.cells, [last])
        found = [
            ('every cell at the last step', last_everywhere, True),
            ('the build-only configurations at the last step, kernel/sched/ only',
             builds([last], SCHED), bool(self.builds)),
            (f'{self.repeat} boots per variant of every cell at the last step (flakes)',
             repeat, self.repeat > 0 and self.repeat_boots > 0),
            (f'every step in {" and ".join(self.full_cells)}', cells(self.full_cells, steps),
             True),
            (f'the {self.subset} mutants of kunit/mutants/ci-subset', mutants('subset'),
             self.subset > 0),
            (f'the debug cells ({", ".join(self.debug)}) at the last step', debug,
             bool(self.debug)),
            ('the upstream-form tests', upstream, bool(self.upstream_cell)),
            (f'the tiny cells at {", ".join(tiny_more)}', tiny, bool(self.tiny and tiny_more)),
            ('full builds of the build-only configurations at the last step',
             builds([last], 'vmlinux'), bool(self.builds)),
            (f'every step in {", ".join(others)}', cells(others, steps), bool(others)),
            ('every step in the build-only configurations, full builds',
             builds(steps, 'vmlinux'), bool(self.builds)),
            (f'every mutant ({self.mutants}, the tiny cells\' ones too)', mutants('all'),
             self.mutants > 0),
        ]
        # Taken whatever the budget: the last step everywhere, and the
        # repeats at it (a few minutes: flakes are found nowhere else).
        self.must = {d for d, f, _ in found if f in (last_everywhere, repeat)}
        return [(d, f) for d, f, wanted in found if wanted]


def empty_plan(m: Matrix) -> dict:
    return {'cells': {c: [m.base] for c in m.cells},
            'builds': {b: {m.base: SCHED} for b in m.builds},
            'tiny': [m.last] if m.last in m.tiny_steps else [],
            'upstream': False, 'mutants': 'none', 'repeat': 0, 'debug': []}


def make_plan(elapsed: int, budget: int, m: Matrix) -> dict:
    plan = empty_plan(m)
    taken, left, costs = [], [], []
    for i, (what, add) in enumerate(m.items()):
        trial = json.loads(json.dumps(plan))
        add(trial)
        more = m.estimate(trial) - m.estimate(plan)
        costs.append([what, more])
        if i == 0 or what in m.must or elapsed + m.estimate(trial) <= budget:
            plan = trial
            taken.append(what)
        else:
            left.append(what)
    need = elapsed + m.estimate(plan)
    warning = '' if need <= budget else \
        (f'even the smallest plan (every cell at the last step) is estimated at '
         f'{need // 60} min, over the {budget // 60} min budget')
    out = {
        'mode': 'reduced' if left else 'full',
        'cells': plan['cells'],
        'builds': {b: sorted(sc, key=m.steps.index) for b, sc in plan['builds'].items()},
        'sched_only': {b: [s for s in sorted(sc, key=m.steps.index) if sc[s] == SCHED]
                       for b, sc in plan['builds'].items()},
        'tiny': plan['tiny'], 'upstream': plan['upstream'], 'mutants': plan['mutants'],
        'repeat': plan['repeat'], 'debug': plan['debug'],
        'estimate_seconds': need, 'budget_seconds': budget, 'elapsed_seconds': elapsed,
        'taken': taken, 'costs': costs, 'warning': warning, 'left': '',
    }
    if left:
        out['left'] = (f'the budget is {budget // 60} min and {elapsed // 60} min went to '
                       f'set-up and the measured builds (cold build folders or ccache): the '
                       f'plan runs {"; ".join(taken)}; it leaves {"; ".join(left)} to '
                       f'scripts/matrix.sh and scripts/mutants.sh kunit/mutants/*/')
    return out


def keep(plan: dict, step: str, name: str) -> bool:
    """Whether PLAN runs NAME (a cell or build) at STEP; unnamed ones run."""
    for kind in ('cells', 'builds'):
        if name in plan.get(kind, {}):
            return step in plan[kind][name]
    return True


def sched_only(plan: dict, step: str, name: str) -> bool:
    return step in plan.get('sched_only', {}).get(name, [])


def load(path: str) -> dict:
    try:
        with open(path, encoding='utf-8') as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise BudgetError(f'cannot read the plan {path}: {e}') from e


# What the machine measured, and which objects a change rebuilds.

def read_steps(path: str) -> Dict[str, str]:
    try:
        with open(path, encoding='utf-8') as f:
            pairs = [line.split() for line in f if line.strip()]
    except OSError as e:
        raise BudgetError(f'cannot read the steps file {path}: {e}') from e
    return {p[0]: p[1] for p in pairs if len(p) == 2}


def build_seconds(results: str, step: str, name: str) -> Optional[int]:
    try:
        with open(os.path.join(results, step, name, 'meta'), encoding='utf-8') as f:
            for line in f:
                if line.startswith('build_seconds='):
                    return int(line.split('=', 1)[1])
    except (OSError, ValueError):
        pass
    return None


def open_lines(path: str) -> List[str]:
    try:
        with open(path, encoding='utf-8') as f:
            return f.read().splitlines()
    except OSError:
        return []


def changed_files(tree: str, a: str, b: str) -> Set[str]:
    try:
        out = subprocess.run(['git', '-C', tree, 'diff', '--name-only', a, b], check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise BudgetError(f'git diff {a} {b} in {tree} failed: {e}') from e
    return {x for x in out.splitlines() if x}


def object_uses(build_dir: str, tree: str, files: Set[str]) -> List[Set[str]]:
    """For every object of @build_dir, which of @files (tree paths) its
    kbuild command file names (its source and every header it includes)."""
    # Named as the compiler saw them: absolute, or relative to the build
    # folder when ccache's base_dir is set (../../linux/include/...).
    top = os.path.basename(os.path.realpath(tree))
    paths = {f: f'{top}/{f}' for f in files}
    uses = []
    for cmd in glob.glob(os.path.join(build_dir, '**', '.*.o.cmd'), recursive=True):
        try:
            with open(cmd, encoding='utf-8', errors='replace') as f:
                text = f.read()
        except OSError:
            continue
        uses.append({f for f, p in paths.items() if p in text})
    return uses


class Rebuilt:
    """frac(name, a, b): the share of a folder's objects that going from
    step a to step b rebuilds (1.0 when the folder has no objects)."""

    def __init__(self, tree: str, shas: Dict[str, str], steps: List[str],
                 folders: Dict[str, str]):
        self.tree, self.shas, self.steps, self.folders = tree, shas, steps, folders
        self.diffs: Dict[tuple, Set[str]] = {}
        self.uses: Dict[str, List[Set[str]]] = {}

    def diff(self, a: str, b: str) -> Set[str]:
        key = tuple(sorted((a, b), key=self.steps.index))
        if key not in self.diffs:
            self.diffs[key] = changed_files(self.tree, self.shas[key[0]], self.shas[key[1]])
        return self.diffs[key]

    def __call__(self, name: str, a: str, b: str) -> float:
        folder = self.folders.get(name, '')
        if folder not in self.uses:
            every = self.diff(self.steps[0], self.steps[-1])
            for x, y in zip(self.steps, self.steps[1:]):
                every |= self.diff(x, y)
            self.uses[folder] = object_uses(folder, self.tree, every) if folder else []
        objects = self.uses[folder]
        if not objects:
            return 1.0
        change = self.diff(a, b)
        return sum(1 for u in objects if u & change) / len(objects)


def main(argv: List[str]) -> int:
    if argv[:1] == ['filter'] and len(argv) == 2:
        plan = load(argv[1])
        for line in sys.stdin:
            parts = line.split()
            if len(parts) >= 2 and keep(plan, parts[0], parts[1]):
                if sched_only(plan, parts[0], parts[1]):
                    line = line.rstrip('\n') + ' --sched-only\n'
                sys.stdout.write(line)
        return 0
    if argv[:1] == ['get'] and len(argv) == 3:
        value = load(argv[1]).get(argv[2], '')
        print(','.join(value) if isinstance(value, list) else value)
        return 0
    if argv[:1] != ['plan']:
        raise BudgetError(__doc__.strip())
    ap = argparse.ArgumentParser(prog='budget.py plan')
    for name in ('--elapsed', '--budget', '--mutants', '--subset'):
        ap.add_argument(name, type=int, required=True)
    for name in ('--repeat', '--repeat-boots'):
        ap.add_argument(name, type=int, default=0)
    ap.add_argument('--debug', default='', help='debug cells as NAME=FOLDER, comma-separated')
    ap.add_argument('--debug-results', default='',
                    help='results of the debug cells (RESULTS/debug), for measured builds')
    for name in ('--steps-file', '--tree', '--results', '--build-root'):
        ap.add_argument(name, required=True)
    for name in ('--cells', '--builds', '--tiny', '--tiny-steps', '--full-cells',
                 '--upstream-cell'):
        ap.add_argument(name, default='')
    args = ap.parse_args(argv[1:])

    def split(text):
        return [x for x in text.split(',') if x]

    shas = read_steps(args.steps_file)
    steps = list(shas)
    cells, builds, tiny = split(args.cells), split(args.builds), split(args.tiny)
    base, last = (steps[0], steps[-1]) if steps else ('', '')
    seconds: Dict[str, int] = {}
    folders: Dict[str, str] = {}
    for c in cells:
        s = build_seconds(args.results, base, c)
        if s is not None:
            seconds[c] = s
        folders[c] = os.path.join(args.build_root, c)
    for t in tiny:
        s = build_seconds(args.results, last, t)
        if s is not None:
            seconds[t] = s
        folders[t] = os.path.join(args.build_root, t)
    defined = matrix.load()
    arch = {e['name']: e['arch'] for kind in ('cells', 'builds') for e in defined.get(kind, [])}
    ref_of: Dict[str, str] = {}
    for c in cells:
        ref_of.setdefault(arch.get(c, ''), c)
    for b in builds:
        ref = ref_of.get(arch.get(b, ''), '')
        if ref in seconds:
            seconds[b] = seconds[ref]
        folders[b] = folders.get(ref, '')
    if args.upstream_cell in seconds:
        seconds['upstream'] = seconds[args.upstream_cell]
    # A debug cell: its folder, the step the folder holds (run-cell.sh's
    # stamp), and the longest build measured in it.
    debug: Dict[str, str] = {}
    by_sha = {v: k for k, v in shas.items()}
    for item in split(args.debug):
        name, _, folder = item.partition('=')
        folders[name] = folder
        try:
            with open(os.path.join(folder, 'sched-tinify.built'), encoding='utf-8') as f:
                debug[name] = by_sha.get(f.read().split()[0], '')
        except (OSError, IndexError):
            debug[name] = ''
        measured = []
        for meta in glob.glob(os.path.join(args.debug_results, name, '*', '*', '*', 'meta')):
            for line in open_lines(meta):
                key, _, value = line.partition('=')
                if key == 'build_seconds' and value.isdigit():
                    measured.append(int(value))
        if measured:
            seconds[name] = max(measured)
    m = Matrix(steps, cells, builds, tiny, split(args.tiny_steps), split(args.full_cells),
               args.mutants, args.subset, seconds, Rebuilt(args.tree, shas, steps, folders),
               'upstream' if args.upstream_cell else '', debug, args.repeat,
               args.repeat_boots)
    plan = make_plan(args.elapsed, args.budget, m)
    plan['full_build_seconds'] = seconds
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
