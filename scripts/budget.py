#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The test command's deadline loop: which item runs next.

scripts/test.sh has a deadline (SCHED_TINIFY_BUDGET minutes after it
starts). It runs items one at a time, in the order of ITEMS (what each
proves per minute), and before each one asks this tool for the next item
whose estimate ends before the deadline: those that would not are left to
the main job, and so is an item still running at the deadline (test.sh
stops it, then tells this tool with "stopped"). Nothing is taken whatever
the budget: on a machine too slow for any item the command still ends in
time, and says what it left.

Estimates, measured as the run goes. A step in a build folder costs a
fixed part (CELL_STEP: the run, the link, kernel/sched/) plus the folder's
full build times the share of its objects the step rebuilds (those whose
kbuild .NAME.o.cmd names a file the step changes; all of them in a folder
with no object yet). A folder's full build is its longest build measured
(in a fresh folder, the first one), else COLD[arch] times the machine's speed: the highest ratio of a measured
full build to COLD[its arch], and 2 before any was measured (a machine
twice as slow as the one COLD was measured on, with a cold ccache).

Usage:
  budget.py next PLAN --elapsed S --deadline S --steps-file F --tree DIR
                 --results DIR --build-root DIR [--repeat N]
      takes into PLAN (a JSON file, made when missing) the next item that
      fits, marks those before it that do not fit as left, and prints the
      item as one line "KIND ARG..." (see ITEMS); nothing when none is left
  budget.py stopped PLAN
      the item last taken did not end before the deadline: it is dropped
      from PLAN and left to the main job
  budget.py left PLAN
      the items PLAN left, one a line, with why
  budget.py get PLAN KEY
      one top-level value of PLAN (lists comma-separated)

PLAN is what the run took, as scripts/matrix.sh --judge reads it:
{"cells": {CELL: [STEP...]}, "builds": {...}, "tiny": {...}, "repeat": N,
"debug": [STEP...], "mutants": [RUN...] (subset, all, a tiny cell),
"upstream": bool, "taken": [[ITEM, estimate, seconds, start]], "left":
[ITEM...], "why": {ITEM: why it was left}}.
Errors go to stderr with exit status 2.
"""

import argparse
import copy
import glob
import json
import os
import subprocess
import sys
from typing import Callable, Dict, List, Optional, Set

import matrix

# Seconds. The fixed part of a cell step (QEMU run, link, kernel/sched/),
# of a build-only step (W=1 on kernel/sched/, link), of a kernel/sched/-only
# build, of a mutant, and what scripts/mutants.sh spends besides its steps
# (the tree prepared twice, the baseline built again from ccache).
# Measured on 2026-12-03: 10-42 s a cell step, 14-22 s a build-only step,
# 15-20 s a cold kernel/sched/-only build, 19 mutants with their set-up in
# 493 s from a cold ccache; these are about 1.5 to 2 times that.
CELL_STEP, BUILD_STEP, SCHED_ONLY, MUTANT, MUTANTS_SETUP = 45, 60, 45, 30, 120
# A boot of scripts/repeat.sh (measured 1-4 s), with room for a loaded machine.
REPEAT_BOOT = 8
# A cold full build of a cell or tiny cell on a fresh 2-core machine,
# rounded up (measured: x86_64 649-792 s, tiny 517 s; arm 323-439 s, tiny 441 s).
COLD = {'x86_64': 800, 'arm': 450}
# The speed assumed before anything was measured.
SLOW = 2.0
# Sanitizers make a cold build slower (measured 288 s against 200 s).
DEBUG_FACTOR = 1.5
SCHED = 'kernel/sched'
# The cells that run every step first: one UP and one SMP cell, one of
# each architecture; the upstream-form tests build like arm-up.
FIRST_UP, FIRST_SMP = 'arm-up', 'x86_64-smp'
# The tiny cells first at the last step: what tinyconfig leaves of the
# scheduler (both classes and the sched_attr calls out) and without the RT class.
FIRST_TINY = ['arm-nosys', 'x86_64-nort']


class BudgetError(Exception):
    """Bad arguments or plan."""


Frac = Callable[[str, Optional[str], str], float]


def empty_plan() -> dict:
    return {'cells': {}, 'builds': {}, 'sched_only': {}, 'tiny': {}, 'repeat': 0,
            'debug': [], 'mutants': [], 'upstream': False, 'taken': [], 'left': []}


class Costs:
    """What a plan costs on this machine, as far as it has been measured.

    full: measured full builds by folder; arch: the architecture of every
    folder; frac(name, a, b): the share of a folder's objects that going
    from step a (None: an empty folder) to b rebuilds."""

    def __init__(self, steps: List[str], arch: Dict[str, str], full: Dict[str, int],
                 frac: Frac, boots: int = 0, mutants: Optional[Dict[str, int]] = None,
                 debug: Optional[Dict[str, str]] = None):
        self.steps, self.arch, self.measured, self.frac = steps, arch, full, frac
        self.boots, self.mutants = boots, mutants or {}
        self.debug = debug or {}
        ratios = [s / COLD[arch[n]] for n, s in full.items() if arch.get(n) in COLD]
        self.speed = max(ratios) if ratios else SLOW

    def full(self, name: str) -> int:
        if name in self.measured:
            return self.measured[name]
        cold = COLD.get(self.arch.get(name, ''), max(COLD.values())) * self.speed
        return round(cold * (DEBUG_FACTOR if name in self.debug else 1))

    def run_cost(self, name: str, todo: List[str], at: Optional[str] = None) -> int:
        """Steps @todo of a folder that holds step @at (None: nothing)."""
        cost = 0
        for s in sorted(todo, key=self.steps.index):
            cost += CELL_STEP + round(self.full(name) * (1.0 if at is None else
                                                         self.frac(name, at, s)))
            at = s
        return cost

    def build_cost(self, name: str, todo: List[str], sched: List[str]) -> int:
        """A build-only configuration: @sched kernel/sched/ only, @todo in full."""
        return len(sched) * SCHED_ONLY + self.run_cost(name, todo) + \
            len(todo) * (BUILD_STEP - CELL_STEP)

    def __call__(self, plan: dict) -> int:
        cost = sum(self.run_cost(c, s) for c, s in plan['cells'].items())
        cost += sum(self.run_cost(t, s) for t, s in plan['tiny'].items())
        cost += sum(self.build_cost(b, plan['builds'].get(b, []), plan['sched_only'].get(b, []))
                    for b in set(plan['builds']) | set(plan['sched_only']))
        cost += plan['repeat'] * self.boots * REPEAT_BOOT
        for name, at in self.debug.items() if plan['debug'] else []:
            # The step, then the self-check (a kernel/sched/ build and a boot).
            cost += CELL_STEP + self.run_cost(name, plan['debug'], at or None)
        if plan['upstream']:
            cost += self.run_cost(FIRST_UP, [self.steps[0]])
        return cost + sum(MUTANTS_SETUP + self.mutants.get(r, 0) * MUTANT
                          for r in plan['mutants'])


def items(steps: List[str], defined: dict, tiny_steps: Dict[str, List[str]], repeat: int,
          mutants: Dict[str, int]) -> List[tuple]:
    """(name, command line, change to a plan, what must be in the plan
    first: (kind, name, step) triples), in the order they run. The mutants
    build from the ccache that the cells at the last step filled."""
    base, last = steps[0], steps[-1]
    cells = [c['name'] for c in defined.get('cells', [])]
    builds = [b['name'] for b in defined.get('builds', [])]
    tiny = [t['name'] for t in defined.get('tiny', [])]
    debug = [d['name'] for d in defined.get('debug', [])]
    found = []

    def add_steps(kind, names, which):
        def add(p):
            for n in names:
                p[kind][n] = sorted(set(p[kind].get(n, [])) | set(which), key=steps.index)
        return add

    def pair(c):
        found.append((f'{c} at the baseline and the last step', f'cells {c} {base},{last}',
                      add_steps('cells', [c], [base, last]), []))

    def tiny_at(names, which):
        names = [t for t in names if set(which) & set(tiny_steps.get(t, []))]
        for t in names:
            at = [s for s in which if s in tiny_steps[t]]
            found.append((f'the tiny cell {t} at {", ".join(x.split("-")[0] for x in at)}',
                          f'tiny {t} {",".join(at)}', add_steps('tiny', [t], at), []))

    def setter(key, value):
        def add(p):
            p[key] = value
        return add

    def mutants_run(which):
        def add(p):
            p['mutants'] = p['mutants'] + [which]
        return add

    whole = [('cells', c, last) for c in cells]
    for c in (FIRST_UP, FIRST_SMP):
        if c in cells:
            pair(c)
    tiny_at([t for t in FIRST_TINY if t in tiny], [last])
    for c in cells:
        if c not in (FIRST_UP, FIRST_SMP):
            pair(c)
    tiny_at([t for t in tiny if t not in FIRST_TINY], [last])
    if builds:
        found.append(('the build-only configurations at the baseline and the last step, '
                      'kernel/sched/ only', f'builds sched {base},{last}',
                      add_steps('sched_only', builds, [base, last]), []))
    if repeat and cells:
        found.append((f'{repeat} boots per variant of every cell at the last step (flakes)',
                      f'repeat {repeat}', setter('repeat', repeat), whole))
    full = [c for c in (FIRST_UP, FIRST_SMP) if c in cells]
    if full:
        found.append((f'every step in {" and ".join(full)}', f'cells {",".join(full)} ' +
                      ','.join(steps), add_steps('cells', full, steps), []))
    if mutants.get('subset'):
        found.append((f'the {mutants["subset"]} mutants of kunit/mutants/ci-subset',
                      'mutants subset', mutants_run('subset'), whole))
    if debug:
        plain = [('cells', d['cell'], last) for d in defined['debug']]
        found.append((f'the debug cells ({", ".join(debug)}) at the last step',
                      f'debug {last}', setter('debug', [last]), plain))
    found.append(('the upstream-form tests', 'upstream', setter('upstream', True), []))
    tiny_at(tiny, steps[:-1])
    if builds:
        found.append(('the build-only configurations at the last step, full builds',
                      f'builds full {last}', add_steps('builds', builds, [last]), []))
    others = [c for c in cells if c not in full]
    if others:
        found.append((f'every step in {", ".join(others)}', f'cells {",".join(others)} ' +
                      ','.join(steps), add_steps('cells', others, steps), []))
    if builds:
        found.append(('every step in the build-only configurations, full builds',
                      'builds full ' + ','.join(steps), add_steps('builds', builds, steps), []))
    if mutants.get('all'):
        found.append((f'every mutant of kunit/mutants ({mutants["all"]}) in the cells',
                      'mutants all', mutants_run('all'), whole))
    for t in tiny:
        if mutants.get(t):
            found.append((f'the {mutants[t]} mutants of the tiny cell {t}', f'mutants {t}',
                          mutants_run(t), [('tiny', t, last)]))
    return found


def next_item(plan: dict, elapsed: int, deadline: int, costs: Costs,
              found: List[tuple]) -> str:
    """Take into @plan the first item not yet decided that fits, leaving
    those that do not; return its command line ('' when none is left)."""
    if plan['taken'] and plan['taken'][-1][2] is None:
        plan['taken'][-1][2] = elapsed - plan['taken'][-1][3]
    decided = {t[0] for t in plan['taken']} | set(plan['left'])
    for name, line, add, needs in found:
        if name in decided:
            continue
        missing = [f'{n} at {s}' for k, n, s in needs if s not in plan[k].get(n, [])]
        trial = copy.deepcopy(plan)
        add(trial)
        more = costs(trial) - costs(plan)
        if missing:
            plan['left'].append(name)
            plan.setdefault('why', {})[name] = f'it needs {", ".join(missing)}, which this run left'
        elif elapsed + more > deadline:
            plan['left'].append(name)
            plan.setdefault('why', {})[name] = \
                f'estimated at {more} s with {max(deadline - elapsed, 0)} s to go'
        else:
            before = {k: v for k, v in plan.items() if k != 'previous'}
            trial['previous'] = before
            trial['taken'].append([name, more, None, elapsed])
            plan.clear()
            plan.update(trial)
            return f'{line}\n{name} (estimated at {more} s, to end by {deadline} s)'
    return ''


def stopped(plan: dict, elapsed: int) -> None:
    """The item last taken did not end before the deadline: back to the
    plan before it, with the item left."""
    if 'previous' not in plan or not plan['taken']:
        raise BudgetError('the plan has no item to stop')
    name = plan['taken'][-1][0]
    before = plan['previous']
    before['left'] = before['left'] + [name]
    before['why'] = dict(before.get('why', {}),
                         **{name: f'stopped at the deadline, at {elapsed} s'})
    plan.clear()
    plan.update(before)


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

    def __call__(self, name: str, a: Optional[str], b: str) -> float:
        folder = self.folders.get(name, '')
        if a is None:
            return 1.0
        if folder not in self.uses:
            every: Set[str] = set()
            for x, y in zip(self.steps, self.steps[1:]):
                every |= self.diff(x, y)
            self.uses[folder] = object_uses(folder, self.tree, every) if folder else []
        objects = self.uses[folder]
        if not objects:
            return 1.0
        change = self.diff(a, b)
        return sum(1 for u in objects if u & change) / len(objects)


def options(tree: str, sha: str, symbols: Set[str]) -> Set[str]:
    """Which of the Kconfig @symbols the tree at @sha defines (the test
    scaffolding's stand-ins, kernel/sched/Kconfig.kunit, do not count)."""
    r = subprocess.run(['git', '-C', tree, 'grep', '-h', '-E',
                        f'^(menu)?config ({"|".join(sorted(symbols))})$', sha, '--',
                        ':(glob)**/Kconfig*', ':(exclude)kernel/sched/Kconfig.kunit'],
                       check=False, capture_output=True, text=True)
    if r.returncode > 1:
        raise BudgetError(f'git grep for Kconfig options at {sha} failed: {r.stderr!r}')
    return {line.split()[-1] for line in r.stdout.splitlines()}


def count_mutants(folder: str, tiny: List[dict]) -> Dict[str, int]:
    """The mutants of each scripts/mutants.sh run: the subset, all of
    them in the cells, those of each tiny cell (mutants.sh --tiny)."""
    subset = 0
    try:
        with open(os.path.join(folder, 'ci-subset'), encoding='utf-8') as f:
            subset = sum(1 for line in f if line.strip() and not line.startswith('#'))
    except OSError:
        pass
    heads = {}
    for path in glob.glob(os.path.join(folder, '*', '*.sed')):
        with open(path, encoding='utf-8') as f:
            heads[path] = [line.rstrip('\n') for line in f if line.startswith('# ')]
    out = {'subset': subset, 'all': sum(1 for h in heads.values()
                                        if not any(x.startswith('# tiny: ') for x in h))}
    for t in tiny:
        out[t['name']] = 0
        for h in heads.values():
            names = [x.split()[3:] for x in h if x.startswith('# tiny cells: ')]
            if f'# tiny: {t["needs"]}' in h and (not names or t['name'] in names[0]):
                out[t['name']] += 1
    return out


def main(argv: List[str]) -> int:
    if argv[:1] == ['get'] and len(argv) == 3:
        value = load(argv[1]).get(argv[2], '')
        print(','.join(value) if isinstance(value, (list, dict)) else value)
        return 0
    if argv[:1] == ['left'] and len(argv) == 2:
        plan = load(argv[1])
        for name in plan.get('left', []):
            print(f'- {name}: {plan.get("why", {}).get(name, "")}')
        return 0
    if argv[:1] == ['stopped'] and len(argv) == 4 and argv[2] == '--elapsed':
        plan = load(argv[1])
        stopped(plan, int(argv[3]))
        save(argv[1], plan)
        return 0
    if argv[:1] != ['next']:
        raise BudgetError(__doc__.strip())
    ap = argparse.ArgumentParser(prog='budget.py next')
    ap.add_argument('plan')
    for name in ('--elapsed', '--deadline'):
        ap.add_argument(name, type=int, required=True)
    ap.add_argument('--repeat', type=int, default=0)
    for name in ('--steps-file', '--tree', '--results', '--build-root'):
        ap.add_argument(name, required=True)
    ap.add_argument('--mutants', default=os.path.join(REPO, 'kunit', 'mutants'))
    args = ap.parse_args(argv[1:])
    shas = read_steps(args.steps_file)
    steps = list(shas)
    if not steps:
        raise BudgetError(f'no steps in {args.steps_file}')
    plan = load(args.plan) if os.path.exists(args.plan) else empty_plan()
    defined = matrix.load()
    if 'tiny_steps' not in plan:
        needs = {t['needs'] for t in defined.get('tiny', [])}
        found = {s: options(args.tree, shas[s], needs) for s in steps} if needs else {}
        plan['tiny_steps'] = {t['name']: [s for s in steps if t['needs'] in found[s]]
                              for t in defined.get('tiny', [])}
    arch, folders, full = {}, {}, {}
    for kind in ('cells', 'builds', 'tiny'):
        for e in defined.get(kind, []):
            arch[e['name']] = e['arch']
            folders[e['name']] = os.path.join(args.build_root, e['name'])
    # A folder's full build: the longest build of its results (the first
    # one in a fresh folder; an incremental one is shorter).
    for kind in ('cells', 'tiny'):
        for e in defined.get(kind, []):
            full[e['name']] = max((b for b in (build_seconds(args.results, s, e['name'])
                                               for s in steps) if b is not None),
                                  default=None)
    # A debug cell: its folder, the step it holds (run-cell.sh's stamp),
    # its longest measured build.
    debug: Dict[str, str] = {}
    by_sha = {v: k for k, v in shas.items()}
    for d in defined.get('debug', []):
        name = d['name']
        arch[name] = arch.get(d['cell'], '')
        folders[name] = os.path.join(args.build_root, name)
        try:
            with open(os.path.join(folders[name], 'sched-tinify.built'), encoding='utf-8') as f:
                debug[name] = by_sha.get(f.read().split()[0], '')
        except (OSError, IndexError):
            debug[name] = ''
        measured = [build_seconds(os.path.dirname(m), '', '') for m in glob.glob(
            os.path.join(os.path.dirname(args.results), 'debug', name, '*', '*', '*', 'meta'))]
        measured = [m for m in measured if m is not None]
        full[name] = max(measured) if measured else None
    boots = sum(4 if c.get('smp') else 2 for c in defined.get('cells', []))
    mutants = count_mutants(args.mutants, defined.get('tiny', []))
    # The share of a folder's objects a step rebuilds, kept for the run:
    # reading a folder's kbuild files takes seconds.
    rebuilt = Rebuilt(args.tree, shas, steps, folders)
    known = plan.setdefault('rebuilt', {})

    def frac(name: str, a: Optional[str], b: str) -> float:
        key = f'{name} {a} {b}'
        if key in known:
            return known[key]
        share = rebuilt(name, a, b)
        # A folder with no objects yet (1.0) is read again next time.
        if rebuilt.uses.get(folders.get(name, '')):
            known[key] = share
        return share

    costs = Costs(steps, arch, {k: v for k, v in full.items() if v is not None}, frac,
                  boots, mutants, debug)
    line = next_item(plan, args.elapsed, args.deadline, costs,
                     items(steps, defined, plan['tiny_steps'], args.repeat, mutants))
    save(args.plan, plan)
    if line:
        print(line)
    return 0


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path: str) -> dict:
    try:
        with open(path, encoding='utf-8') as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise BudgetError(f'cannot read the plan {path}: {e}') from e


def save(path: str, plan: dict) -> None:
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        json.dump(plan, f, indent=1)
        f.write('\n')
    os.replace(tmp, path)


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except BudgetError as err:
        print(f'budget.py: {err}', file=sys.stderr)
        sys.exit(2)
