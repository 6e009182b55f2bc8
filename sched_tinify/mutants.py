# SPDX-License-Identifier: GPL-2.0
"""Can the tests fail? Mutants, and the debug cells' planted bugs.

A mutant (kunit/mutants/SUITE/NN-name.sed) is a sed script that breaks the code a suite guards. Its
header says where it applies:

  # file: PATH        the file it edits
  # step: NN          the first step of the series at which its code exists
  # until: NN         the last (default: the last step of the series)
  # cells: A B        the cells that build its code and can see what it
                      breaks (default: every plain cell)
  # tiny: OPTION      it breaks code only a tiny cell with OPTION off runs
  # tiny cells: A B   the tiny cells that run it (a cells' mutant too, from
                      the first step with their option)
  # expect: survive: WHY   it must change nothing, so that WHY stays true

It runs at its first step and at its last, laid on the step's tree for one build (run.Overlay).
Killed means: the result differs from its control -- the same target's plain result at that step,
which must be green -- or, in a tiny cell, is not the expected one.
"""

import os
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from . import config, judge, parse, run

# The debug cells' planted bugs (scripts/debug-selfcheck.c): each must be
# reported by the check that is there to catch it.
PLANTED = [
    ('UBSAN', re.compile(r'UBSAN: shift-out-of-bounds in \S*kernel/sched/debug_selfcheck\.c:')),
    ('debug objects', re.compile(r'ODEBUG: init active .*object type: timer_list '
                                 r'hint: selfcheck_timer_fn')),
    ('KASAN', re.compile(r'BUG: KASAN: use-after-free in debug_selfcheck_planted')),
]


@dataclass
class Mutant:
    path: str
    file: str
    first: int
    until: Optional[int]
    cells: List[str]
    tiny: str
    tiny_cells: List[str]
    survive: bool

    @property
    def name(self) -> str:
        """FOLDER/FILE without .sed, as under kunit/mutants/ (results/PKG/mutants/NAME)."""
        return os.path.join(*os.path.normpath(self.path).split(os.sep)[-2:])[:-4]


def read(path: str) -> Mutant:
    head = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'# (file|step|until|cells|tiny|tiny cells|expect): (.*)', line)
            if m and m.group(1) not in head:
                head[m.group(1)] = m.group(2).strip()
    for key in ('file', 'step'):
        if key not in head:
            raise config.ConfigError(f'{path}: no "# {key}:" line')
    return Mutant(path, head['file'], int(head['step']),
                  int(head['until']) if 'until' in head else None,
                  head.get('cells', '').split(), head.get('tiny', ''),
                  head.get('tiny cells', '').split(), head.get('expect', '').startswith('survive'))


def expand(paths: List[str]) -> List[Mutant]:
    """Mutants from folders, *.sed files, and lists of paths (one per line,
    relative to the repository, '#' comments)."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            found = sorted(os.path.join(p, n) for n in os.listdir(p) if n.endswith('.sed'))
        elif p.endswith('.sed'):
            found = [p]
        else:
            found = [os.path.join(config.REPO, n) for n in config.read_list(p)]
        if not found:
            raise config.ConfigError(f'no mutant in {p}')
        out += [read(os.path.realpath(f)) for f in found]
    return out


def folders(top: str) -> List[str]:
    """The suites' folders of mutants in @top (not the lists beside them, nor hidden ones); none
    when @top is empty (a kernel without mutants)."""
    return [os.path.join(top, d) for d in sorted(os.listdir(top))
            if os.path.isdir(os.path.join(top, d)) and not d.startswith('.')] if top else []


def folder(option: Optional[str], kernel: config.Kernel) -> str:
    """The folder of mutants for @kernel: --mutants when given, else the kernel's in
    ci/matrix.json ('' when it has none)."""
    if option:
        return option
    return os.path.join(config.REPO, kernel.mutants) if kernel.mutants else ''


def runs_in(m: Mutant, t: config.Target) -> bool:
    """Whether @m runs in @t: a cell, or a tiny cell (its header)."""
    if t.kind == 'cell':
        return not m.tiny and (not m.cells or t.name in m.cells)
    return t.kind == 'tiny' and m.tiny in ('', t.needs) and (
        t.name in m.tiny_cells or bool(m.tiny and not m.tiny_cells))


def plan(work: run.Work, mutants: List[Mutant], targets: List[config.Target],
         steps: List[Tuple[str, str]], last_only: bool) -> List[Tuple[Mutant, config.Target,
                                                                        str, str]]:
    """(mutant, target, step, sha) to run: each mutant in each target of its kind, at its first
    step (in a tiny cell: the first with the cell's option) and its last; target by target, step by
    step, so that a build folder moves from one step to the next once."""
    out = []
    last = len(steps) - 1
    for m in mutants:
        if not 0 <= m.first <= (m.until if m.until is not None else last) <= last:
            raise config.ConfigError(f'{m.path}: its steps are not those of the series')
        for t in [t for t in targets if runs_in(m, t)]:
            first, until = m.first, m.until if m.until is not None else last
            while t.kind == 'tiny' and first < until and t.needs not in run.options(
                    work.tree, steps[first][1]):
                first += 1
            for k in dict.fromkeys([until] if last_only else [first, until]):
                out.append((m, t, *steps[k]))
    order = [s for s, _ in steps]
    return sorted(out, key=lambda x: (targets.index(x[1]), order.index(x[2])))


def verdict(m: Mutant, target: config.Target, e: dict) -> str:
    """killed (its results differ), survived, or invalid (not judged, or red with no
    difference: a problem of the run, such as a time-out, says nothing of the tests)."""
    if e['status'] not in (judge.SAME, judge.DIFFERS, judge.AS_EXPECTED, judge.NOT_EXPECTED):
        return f'invalid ({(e["problems"] or [e["status"]])[0][:80]})'  # it names the status
    if e['differences']:
        return 'killed'
    return 'invalid (red without a difference)' if judge.red(e) else 'survived'


def env() -> Dict[str, str]:
    """A mutant run's environment: a shorter time-out (a broken scheduler may hang the boot)."""
    return dict(os.environ, KUNIT_TIMEOUT=os.environ.get('KUNIT_TIMEOUT', '60'))


def inputs(m: Mutant, t: config.Target, sha: str, env: Dict[str, str]) -> Dict[str, str]:
    """A mutant run's inputs: its target's (with the mutant's time-out, @env), and the mutant."""
    return run.inputs_of(t, sha, env=env, overlay=run.Overlay.mutant(m.path, m.file))


def control_problem(work: run.Work, kp, t: config.Target, step: str, sha: str) -> str:
    """Why @t's control at @step cannot judge a mutant ('' when it can): a tiny cell's must be as
    expected; a cell's must be green and, past the baseline, have the baseline's results."""
    control = judge.entry(work, kp, t, step, sha)
    if control['status']:  # not run, stale, a harness failure...
        return f'the control is {control["status"]}'
    if t.kind == 'tiny':
        judge.compare(t, step, control, None)
        return '' if control['status'] == judge.AS_EXPECTED else 'the control is not as expected'
    if control['problems'] or control['failures']:
        return 'the control is red'
    base = judge.entry(work, kp, t, *config.read_steps(work.steps_file)[0]) \
        if step != config.BASELINE else None
    if base and base['status']:
        return f'the baseline is {base["status"]}'
    return 'the control differs from the baseline' if base and judge.differences(
        base['results'], control['results'], 'baseline') else ''


def judge_one(work: run.Work, kp, m: Mutant, t: config.Target, step: str, sha: str,
              env: Dict[str, str]) -> Tuple[str, str]:
    """(what the mutant did in @t at @step, the first differences)."""
    why = control_problem(work, kp, t, step, sha)
    if why:
        return f'invalid ({why})', ''
    e = judge.entry(work.sub('mutants', m.name), kp, t, step, sha, want=inputs(m, t, sha, env))
    if e['status'] in (judge.STALE,):
        return 'invalid (stale)', ''
    control = judge.entry(work, kp, t, step, sha)
    if not e['status'] and t.kind == 'tiny':
        judge.compare(t, step, e, None)
    elif not e['status']:
        # Against the control's results at any step, the baseline too.
        e['differences'] = judge.differences(control['results'], e['results'], 'control')
        e['status'] = judge.DIFFERS if e['differences'] else judge.SAME
    return verdict(m, t, e), '; '.join(e['differences'][:3])


def summary(rows: List[Tuple[Mutant, config.Target, str, str, str]]) -> Tuple[List[str],
                                                                            List[str]]:
    """(summary.md lines, the runs that did not do what they are expected to)."""
    names = list(dict.fromkeys(t.name for _, t, _, _, _ in rows))
    lines = ['| mutant | step | target | expected | result | first differences |',
             '|---|---|---|---|---|---|']
    bad = []
    score: Dict[str, List[int]] = {n: [0, 0] for n in names}
    for m, t, step, result, diffs in rows:
        want = 'survived' if m.survive else 'killed'
        if result != want:
            bad.append(f'mutant {m.name} in {t.name} at {step[:2]}: {result}, not {want}')
        if not m.survive:
            score[t.name][0] += result == 'killed'
            score[t.name][1] += 1
        lines.append(f'| {m.name} | {step[:2]} | {t.name} | {want} | {result} | '
                     f'{diffs.replace("|", chr(92) + "|")} |')
    head = [f'- {n}: {k} of {total} mutant runs killed' for n, (k, total) in score.items()]
    return head + [''] + lines, bad


def planted(lines: List[str]) -> List[Tuple[str, bool, str]]:
    """(check, caught, the line that shows it or why not) for each planted
    bug in a debug cell's console."""
    hits = [(name, next((x.strip() for x in lines if p.search(x)), ''), p) for name, p in PLANTED]
    out = [(name, bool(hit), hit or f'no line matches /{p.pattern}/') for name, hit, p in hits]
    ours = [line for line, who, trace in parse.kmemleak_leaks(lines)
            if '(size 128)' in line and 'debug_selfcheck_planted' in trace.split()
            and not parse.boot_leak(who, trace)]
    counted = any('leak(s) reported' in p for p in parse.kmemleak(lines)[0])
    out.append(('kmemleak', bool(ours) and counted,
                f'{len(ours)} planted object(s) reported, counted: {counted}' if ours
                else 'no leak from debug_selfcheck_planted() reported'))
    # Each report is a splat, which makes a report red.
    red = [any(parse.SPLAT.search(line) and PLANTED[i][1].search(line) for line in lines)
           for i in (0, 2)] + [any(parse.SPLAT.search(line) and 'lib/debugobjects.c' in line
                                   for line in lines)]
    out.append(('report', all(red), 'UBSAN, KASAN and the ODEBUG WARNING are splats'
                if all(red) else f'not a splat: {red}'))
    return out
