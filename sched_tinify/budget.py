# SPDX-License-Identifier: GPL-2.0
"""The test command's deadline (docs/budget.rst): items() in the order of what each proves per
minute; Costs estimates each as the run goes (a target step: KEPT with a fresh result, else
STEP plus the folder's full build times the share of its objects the step rebuilds, Rebuilt; a
full build: the longest measured, else COLD times the machine's speed, SLOW before any was
measured).
"""

import contextlib
import glob
import os
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Set, Tuple

from . import config, run

# Seconds. Measured on 2026-12-03: 10-42 s a cell step, 14-22 s a
# build-only step, 15-20 s a cold kernel/sched/-only build, 19 mutants in
# 493 s from a cold ccache; these are about 1.5 to 2 times that.
STEP, SCHED_ONLY, MUTANT, REPEAT_BOOT, KEPT = 45, 45, 60, 8, 2
# A cold full build on a fresh 2-core machine, rounded up (measured: x86_64
# 649-792 s, tiny 517 s; arm 323-439 s, tiny 441 s).
COLD = {'x86_64': 800, 'arm': 450}
SLOW = 2.0
# Sanitizers make a cold build slower (measured 288 s against 200 s).
DEBUG_FACTOR = 1.5


@dataclass
class Item:
    """What one item runs: target steps, and the rest."""
    name: str
    work: Dict[str, List[str]] = field(default_factory=dict)
    floor: bool = False
    sched_only: bool = False
    repeat: int = 0
    mutants: str = ''
    upstream: bool = False
    needs: List[Tuple[str, str]] = field(default_factory=list)


def floor_cell(targets: List[config.Target], kernel: config.Kernel) -> str:
    """The cell of the floor: the kernel's, else (other targets asked for) the first cell."""
    cells = [t.name for t in targets if t.kind == 'cell']
    return kernel.floor if kernel.floor in cells else next(iter(cells), '')


def items(targets: List[config.Target], steps: List[str], has: Dict[str, List[str]],
          repeat: int, mutants: Dict[str, int], first_: List[str], floor: str) -> List[Item]:
    """Every item, in the order they run, those of the floor (in cell @floor) first. @has: the
    steps at which each tiny cell's option exists; @mutants: how many each mutant run has;
    @first_: ci/matrix.json's "first"."""
    base, last = steps[0], steps[-1]
    cells, tiny, builds = ([t.name for t in targets if t.kind == k] for k in ('cell', 'tiny',
                                                                                'build'))
    debug = [t for t in targets if t.kind == 'debug']
    first = [c for c in first_ if c in cells]
    whole = [(c, last) for c in cells]
    out = [Item(f'the floor: {floor} at the baseline and the last step', {floor: [base, last]},
                floor=True)] * bool(floor)
    out += [Item(f'the floor: the {mutants["floor"]} mutant run(s) of its list in {floor} at '
                 'the last step', mutants='floor', needs=[(floor, last)], floor=True)
            ] * bool(floor and mutants.get('floor'))
    out += [Item(f'{c} at the baseline and the last step', {c: [base, last]})
            for c in first if c != floor]

    def tiny_at(names, which):
        for t in names:
            at = [s for s in which if s in has.get(t, [])]
            if at:
                out.append(Item(f'the tiny cell {t} at {", ".join(s[:2] for s in at)}', {t: at}))
    tiny_at([t for t in first_ if t in tiny], [last])
    out += [Item(f'{c} at the baseline and the last step', {c: [base, last]})
            for c in cells if c not in first and c != floor]
    tiny_at([t for t in tiny if t not in first_], [last])
    if builds:
        out.append(Item('the build-only configurations at the baseline and the last step, '
                        'kernel/sched/ only', {b: [base, last] for b in builds}, sched_only=True))
    if repeat and cells:
        out.append(Item(f'{repeat} boots per variant of every cell at the last step',
                        repeat=repeat, needs=whole))
    if first:
        out.append(Item(f'every step in {" and ".join(first)}', {c: steps for c in first}))
    if mutants.get('subset'):
        out.append(Item(f'the {mutants["subset"]} mutant run(s) of kunit/mutants/ci-subset',
                        mutants='subset', needs=whole))
    if debug:
        out.append(Item(f'the debug cells ({", ".join(d.name for d in debug)}) at the last '
                        'step', {d.name: [last] for d in debug},
                        needs=[(d.same_as, last) for d in debug]))
    out += [Item('the upstream-form tests', upstream=True)]
    tiny_at(tiny, steps[:-1])
    if builds:
        out.append(Item('the build-only configurations at the baseline and the last step, '
                        'full builds', {b: [base, last] for b in builds}))
    others = [c for c in cells if c not in first]
    if others:
        out.append(Item(f'every step in {", ".join(others)}', {c: steps for c in others}))
    if builds:
        out.append(Item('every step in the build-only configurations, full builds',
                        {b: steps for b in builds}))
    if mutants.get('all'):
        out.append(Item(f'every mutant of kunit/mutants in the cells ({mutants["all"]} run(s))',
                        mutants='all', needs=whole))
    out += [Item(f'the {mutants[t]} mutant run(s) of the tiny cell {t}', mutants=t,
                 needs=[(t, last)]) for t in tiny if mutants.get(t)]
    return out


class Costs:
    """What items cost on this machine, as far as it has been measured.

    full: measured full builds by target; frac(name, a, b): the share of a folder's objects going
    from step a (None: its first build in this run) to step b rebuilds; mutants: runs by item;
    kept(name, step, sched_only): whether that target step has a fresh result (KEPT to judge)."""

    def __init__(self, targets: List[config.Target], full: Dict[str, int],
                 frac: Callable[[str, Optional[str], str], float], boots: int = 0,
                 mutants: Optional[Dict[str, int]] = None,
                 kept: Callable[[str, str, bool], bool] = lambda name, step, sched_only: False):
        self.target = {t.name: t for t in targets}
        self.measured, self.frac, self.boots, self.kept, self.mutants = \
            full, frac, boots, kept, mutants or {}
        self.at: Dict[str, str] = {}
        self.builds: Dict[str, Dict[str, List[str]]] = {}

    @property
    def speed(self) -> float:
        ratios = [s / COLD[self.target[n].arch] for n, s in self.measured.items()
                  if n in self.target and self.target[n].kind != 'debug']
        return max(ratios) if ratios else SLOW

    def full(self, name: str) -> int:
        if name in self.measured:
            return self.measured[name]
        t = self.target[name]
        return round(COLD[t.arch] * self.speed * (DEBUG_FACTOR if t.kind == 'debug' else 1))

    def __call__(self, item: Item, steps: List[str]) -> int:
        """What @item costs; the target steps it builds (those with no fresh result) are kept for
        ran(), after the item's run."""
        cost, self.builds[item.name] = 0, {n: [s for s in sorted(todo, key=steps.index) if not
                                               self.kept(n, s, item.sched_only)]
                                           for n, todo in item.work.items()}
        for name, todo in self.builds[item.name].items():
            cost += KEPT * (len(item.work[name]) - len(todo))
            at = self.at.get(name)
            for s in todo:
                cost += SCHED_ONLY if item.sched_only else STEP + round(self.full(name) * (
                    1.0 if at is None else self.frac(name, at, s)))
                at = s
        cost += item.repeat * self.boots * REPEAT_BOOT
        cost += self.mutants.get(item.mutants, 0) * MUTANT
        if item.upstream:
            cost += STEP + COLD['arm'] * self.speed
        return round(cost)

    def ran(self, item: Item, steps: List[str], full: Dict[str, int]) -> None:
        """The folders hold the last step @item built; @full: measured()."""
        self.measured = full
        for name, todo in self.builds.get(item.name, {}).items():
            if todo and not item.sched_only:
                self.at[name] = max(todo, key=steps.index)


def object_uses(build_dir: str, tree: str, files: Set[str]) -> List[Set[str]]:
    """For every object of @build_dir, which of @files (tree paths) its kbuild command file names
    (its source and every header it includes), as the compiler saw them: absolute, or relative to
    the build folder with ccache's base_dir (../../linux/include/...)."""
    top = os.path.basename(os.path.realpath(tree))
    paths = {f: f'{top}/{f}' for f in files}
    return [{f for f, p in paths.items() if p in text} for text in (
        config.read(cmd, 'replace') for cmd in glob.glob(os.path.join(
            build_dir, '**', '.*.o.cmd'), recursive=True))]


class Rebuilt:
    """frac(name, a, b): the share of a folder's objects going from step a
    to step b rebuilds (1.0 for a folder's first build, or with no objects)."""

    def __init__(self, work: run.Work, steps: List[Tuple[str, str]]):
        self.work, self.sha = work, dict(steps)
        self.order = [s for s, _ in steps]
        self.diffs: Dict[Tuple[str, str], Set[str]] = {}
        self.uses: Dict[str, List[Set[str]]] = {}

    def diff(self, a: str, b: str) -> Set[str]:
        key = tuple(sorted((a, b), key=self.order.index))
        if key not in self.diffs:
            self.diffs[key] = set(run.git(self.work.tree, 'diff', '--name-only',
                                          *(self.sha[s] for s in key)).stdout.split())
        return self.diffs[key]

    def __call__(self, name: str, a: Optional[str], b: str) -> float:
        if a is None:
            return 1.0
        if not self.uses.get(name):  # an empty folder may have been built since
            every = set().union(*(self.diff(x, y) for x, y in zip(self.order, self.order[1:])))
            folder = os.path.join(self.work.work, self.work.pkg, 'build', name)
            self.uses[name] = object_uses(folder, self.work.tree, every)
        objects = self.uses[name]
        if not objects:
            return 1.0
        change = self.diff(a, b)
        return sum(1 for u in objects if u & change) / len(objects)


def measured(work: run.Work, targets: List[config.Target], steps: List[str]) -> Dict[str, int]:
    """The longest build of each target's results (the first one in a fresh folder); a
    kernel/sched/-only build is no measure of a whole one."""
    return {t.name: max(found) for t in targets if (found := [
        r['build']['seconds'] for r in (run.load(work, s, t.name) for s in steps)
        if r and r.get('build') and r['inputs'].get('scope') != 'kernel/sched'])}


def count_mutants(work: run.Work, targets: List[config.Target], steps: List[Tuple[str, str]],
                  folder: str, floor: str) -> Tuple[Dict[str, int], Dict[str, int]]:
    """The runs of each mutants' item (mutants.runs_in(), at the last step), and those with no
    fresh result: the floor's list in cell @floor, the subset and every mutant in the cells,
    those of each tiny cell."""
    from . import mutants  # pylint: disable=import-outside-toplevel
    every, lists = mutants.folders(folder), {n: os.path.join(folder, n) if folder else ''
                                             for n in ('floor', 'ci-subset')}
    lists = {n: [p] if p and os.path.exists(p) else [] for n, p in lists.items()}
    cells = [t for t in targets if t.kind == 'cell']
    runs, todo = {}, {}
    for k, (paths, which) in {'floor': (lists['floor'], [t for t in cells if t.name == floor]),
                              'subset': (lists['ci-subset'], cells),
                              'all': (every, cells), **{t.name: (every, [t]) for t in targets
                                                        if t.kind == 'tiny'}}.items():
        found = mutants.expand(paths)
        runs[k] = todo[k] = sum(mutants.runs_in(m, t) for m in found for t in which)
        with contextlib.suppress(config.ConfigError):  # else the item's run says why
            todo[k] = sum(not run.kept(work.sub('mutants', m.name), t, s, sha, env=mutants.env(),
                                       overlay=run.Overlay.mutant(m.path, m.file))
                          for m, t, s, sha in mutants.plan(work, found, which, steps, True))
    return runs, todo


def option_steps(work: run.Work, targets: List[config.Target],
                 steps: List[Tuple[str, str]]) -> Dict[str, List[str]]:
    """The steps at which each tiny cell's option exists."""
    return {t.name: [s for s, sha in steps if t.needs in run.options(work.tree, sha)]
            for t in targets if t.kind == 'tiny'}


def cells_boots(targets: List[config.Target]) -> int:
    """Boots of one repeat round: every variant of every cell."""
    return sum(len(run.variants(t, '')) for t in targets if t.kind == 'cell')
