# SPDX-License-Identifier: GPL-2.0
"""The one judge: every result against its reference.

A result is first read for itself (entry()): not run, stale (its key is not that of the current
inputs), incomplete, a harness failure, not applicable (a tiny cell at a step without its option),
a failed build, or judged: its tests parsed from the console log, its problems found (kernel
splats, KTAP errors, kunit.json disagreeing with the log, a time- out, kmemleak). Then compare()
holds it against its reference:

  cell              the same cell at the baseline: identical results
  tiny cell         its expected file (with the console's own lines)
  debug cell        the plain cell at the same step, which must be green
  build-only        the W=1 warnings of its own baseline build
  mutant            its control (sched_tinify.mutants)

A step left out of a plan (the test command's deadline) is "left", and so is one whose reference
is (not a debug cell whose plain cell ran). judge_run() gives the report's data (render.py).
"""

import os
from typing import Dict, List, Optional, Tuple

from . import config, parse, run

NOT_RUN, STALE, INCOMPLETE, HARNESS = run.NOT_RUN, run.STALE, run.INCOMPLETE, run.HARNESS
NA, BUILD_FAILED, LEFT = 'n/a', 'build failed', 'left'
BASE, SAME, DIFFERS, BASE_RED = 'baseline', 'same', 'differs', 'baseline not green'
AS_EXPECTED, NOT_EXPECTED, BUILT = 'as expected', 'not as expected', 'built'
UNJUDGED = 'not judged'
# Lines of a tiny cell's expected file about its console, not its tests.
NO_SPLAT, HAS, LACKS = 'console: no kernel splat', 'console has: ', 'console lacks: '


def read_expected(path: str) -> parse.Results:
    """An expected file: "path<TAB>status[<TAB>skip reason]" lines."""
    out: parse.Results = {}
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            parts = line.split('\t')
            if len(parts) not in (2, 3) or parts[1] not in (parse.PASS, parse.SKIP,
                                                            parse.FAIL, parse.CRASH):
                raise ValueError(f'{path}:{n}: not "path<TAB>status[<TAB>reason]"')
            if parts[0] in out:
                raise ValueError(f'{path}:{n}: {parts[0]} listed twice')
            out[parts[0]] = (parts[1], parts[2] if len(parts) == 3 else '')
    if not out:
        raise ValueError(f'{path}: no expected result')
    return out


def differences(ref: parse.Results, got: parse.Results, label: str) -> List[str]:
    """Every way two results differ, one line each; @label names @ref."""
    def fmt(r):
        return f'{r[0]} ({r[1]})' if r[1] else r[0]
    pairs = [(path, ref.get(path), got.get(path)) for path in sorted(set(ref) | set(got))]
    return [f'missing: {path} ({label} {fmt(a)})' if b is None else f'new: {path} {fmt(b)}'
            if a is None else f'changed: {path}: {fmt(a)} -> {fmt(b)}'
            for path, a, b in pairs if a != b]


def read_log(path: str) -> List[str]:
    try:
        return config.read(path, 'backslashreplace').splitlines(True)
    except OSError:
        return []


def booted(kp, target: config.Target, res: dict, out: str, cpus: int = 0) -> dict:
    """The findings of a booted result's logs; the kernel must be what
    the target claims: SMP or not, and @cpus (the target's) brought up."""
    lines, logs = read_log(os.path.join(out, 'test.log')), {}
    results, counts, problems = parse.ktap(kp, lines, logs)
    if res.get('config_smp') != target.smp:
        problems.append(f'CONFIG_SMP={"y" if res.get("config_smp") else "n"} in a '
                        f'{"SMP" if target.smp else "UP"} target')
    if res.get('booted_cpus') != (cpus or target.cpus):
        problems.append(f'{res.get("booted_cpus")} CPU(s) up, {cpus or target.cpus} asked for')
    failures = [f'{p}: {s}' for p, (s, _) in results.items() if s in (parse.FAIL, parse.CRASH)]
    found = parse.splats(lines)
    if found:
        problems.append(f'kernel splat: {len(found)} line(s), first: {found[0][:160]}')
    more, notes = parse.kmemleak(lines) if target.kmemleak else ([], [])
    problems += more
    if res['run'].get('timed_out'):
        problems.append('QEMU timed out')
    if res['run']['rc'] and not failures:
        problems.append(f'kunit.py exec exited {res["run"]["rc"]} with no failed test')
    try:
        problems += parse.json_disagrees(results, parse.kunit_json(
            os.path.join(out, 'kunit.json')))
    except (OSError, ValueError, KeyError) as e:
        problems.append(f'kunit.json unreadable: {e}')
    if target.expected:
        results[NO_SPLAT] = (parse.PASS if not found else parse.FAIL, '')
    return {'results': results, 'counts': counts, 'problems': problems,
            'failures': failures, 'notes': notes, 'logs': logs, 'excerpt': found[:40]}


def entry(work: run.Work, kp, target: config.Target, step: str, sha: str,
          planned: bool = True, want: Optional[Dict[str, str]] = None) -> dict:
    """One result, read for itself; fresh when made with the inputs @want
    (by default those of a plain run now)."""
    out = work.out(step, target.name)
    res = run.load(work, step, target.name)
    e = {'status': '', 'problems': [], 'failures': [], 'notes': [], 'differences': [],
         'results': {}, 'counts': {}, 'seconds': [0, 0], 'logs': {}, 'excerpt': []}
    old = (res or {}).get('inputs', {})
    current = want or run.inputs_of(target, sha, old.get('scope') == 'kernel/sched')
    stale = run.stale(res, config.key(current)).split(':')[0]  # the one freshness rule
    if stale == NOT_RUN:
        # A tiny cell at a step without its option need not have run.
        e['status'] = NA if target.expected and target.needs not in run.options(
            work.tree, sha) else NOT_RUN
    elif stale == STALE:
        why = [k for k in sorted(set(old) | set(current)) if old.get(k) != current.get(k)]
        e.update(status=STALE, why=f'other {", ".join(why)} than now')
    elif stale == INCOMPLETE:
        e.update(status=INCOMPLETE, why=f'interrupted by {res["interrupted"]}'
                 if res.get('interrupted') else 'the run did not finish')
    elif stale:
        e.update(status=HARNESS, why=res['harness_error'])
    elif res.get('na'):
        e['status'] = NA
    elif res['build']['rc']:
        e.update(status=BUILD_FAILED, why=f'see {out}/build.log')
    if e['status']:
        if e['status'] in (NOT_RUN, STALE, INCOMPLETE, HARNESS) and not planned:
            e['status'] = LEFT
        elif e['status'] not in (NA,):
            e['problems'].append(f'{e["status"]}' + (f': {e["why"]}' if 'why' in e else ''))
        return e
    e['seconds'] = [res['build']['seconds'], res.get('run', {}).get('seconds', 0)]
    if target.build_only:
        e.update(status=BUILT, scope=res['scope'], needs_section=res.get('needs_section', ''),
                 warnings=parse.located(res['warnings'], run.touched_files(work.series),
                                        res['scope'] == 'kernel/sched'))
        return e
    e.update(booted(kp, target, res, out))
    if target.expected:
        lines = read_log(os.path.join(out, 'test.log'))
        for path in read_expected(os.path.join(config.REPO, target.expected)):
            for prefix, want in ((HAS, True), (LACKS, False)):
                if path.startswith(prefix):
                    seen = any(path[len(prefix):] in line for line in lines)
                    e['results'][path] = (parse.PASS if seen == want else parse.FAIL, '')
    e['sizes'] = res.get('sizes', {})
    return e


def compare(target: config.Target, step: str, e: dict, ref: Optional[dict]) -> None:
    """Hold a judged entry against its reference (see the module's comment)."""
    if ref and ref['status'] == LEFT and not (target.same_as and ref['counts']):  # see above
        e['status'] = LEFT
        return
    if target.expected:
        d = differences(read_expected(os.path.join(config.REPO, target.expected)),
                        e['results'], 'expected')
        e['status'] = NOT_EXPECTED if d or e['problems'] or e['failures'] else AS_EXPECTED
    elif target.build_only:
        if step == config.BASELINE:
            return
        if not ref or ref['status'] != BUILT:
            e['problems'].append('no baseline build to compare with')
            return
        if ref['scope'] != e['scope'] and ref['scope'] == 'kernel/sched':
            e['problems'].append('the baseline was built for kernel/sched/ only, this step in '
                                 'full: its other warnings cannot be compared')
            return
        d = [f'new W=1 warning: {w}' for w in sorted(set(e['warnings']) - set(ref['warnings']))]
    elif target.same_as:
        if not ref or ref['status'] not in (BASE, SAME, LEFT) or ref['problems'] or ref['failures']:
            why = (ref or {}).get('status', NOT_RUN)
            e['problems'].append(f'the plain cell {target.same_as} has no green result at this '
                                 f'step to compare with ({why})')
            return
        d = differences(ref['results'], e['results'], 'plain cell')
        e['status'] = DIFFERS if d else SAME
    elif step == config.BASELINE:
        e['status'] = BASE
        return
    elif not ref or ref['status'] != BASE or ref['problems'] or ref['failures']:
        e['status'] = BASE_RED
        return
    else:
        d = differences(ref['results'], e['results'], 'baseline')
        e['status'] = DIFFERS if d else SAME
    e['differences'] = d


def harness(problem: str) -> bool:
    """Whether a problem of a target step is the harness's (it could not run or judge it), not
    the kernel's or the series'."""
    return problem.split(':')[0] in (NOT_RUN, STALE, INCOMPLETE, HARNESS)


def red(e: dict) -> bool:
    return bool(e['problems'] or e['failures'] or e['differences']) or \
        e['status'] in (BASE_RED, NOT_EXPECTED, DIFFERS)


def judge_run(work: run.Work, kp, targets: List[config.Target],
              steps: List[Tuple[str, str]], plan: Optional[Dict[str, List[str]]] = None,
              reference_only: bool = False) -> dict:
    """Every target at every step, against its reference: the grid, the problems, the totals and
    the verdict. With @reference_only, the baseline was not asked for: only the targets it is the
    reference of (cells, build-only configurations) are judged there."""
    sha_of = dict(steps)
    every = [s for s, _ in steps]
    targets = [t for t in targets if t.kind != 'upstream']
    grid: Dict[str, Dict[str, dict]] = {s: {} for s in every}
    by_name = {t.name: t for t in targets}

    def planned(step: str, name: str) -> bool:
        return plan is None or step in plan.get(name, [])

    base = {}
    for t in targets:
        if t.same_as and t.same_as not in by_name:
            raise ValueError(f'{t.name} needs its plain cell {t.same_as} in the run')
        if t.kind in ('cell', 'build'):
            if config.BASELINE not in sha_of:
                raise ValueError(f'no {config.BASELINE} in the steps judged')
            base[t.name] = entry(work, kp, t, config.BASELINE, sha_of[config.BASELINE],
                                 planned(config.BASELINE, t.name))
    for step in every:
        for t in sorted(targets, key=lambda x: bool(x.same_as)):
            if reference_only and step == config.BASELINE and t.name not in base:
                continue
            e = base[t.name] if step == config.BASELINE and t.name in base else \
                entry(work, kp, t, step, sha_of[step], planned(step, t.name))
            if not e['status'] or e['status'] == BUILT:
                ref = grid[step].get(t.same_as) if t.same_as else base.get(t.name)
                compare(t, step, e, ref)
            grid[step][t.name] = e
    problems = [f'{s} {n}: {p}' for s in every for n, e in grid[s].items()
                for p in e['problems'] + e['failures']]
    diffs = [f'{s} {n}: {d}' for s in every for n, e in grid[s].items() for d in e['differences']]
    notes = [f'{s} {n}: {x}' for s in every for n, e in grid[s].items() for x in e['notes']]
    totals = {k: sum(e['counts'].get(k, 0) for row in grid.values() for e in row.values())
              for k in (parse.PASS, parse.SKIP, parse.FAIL, parse.CRASH)}
    judged = sum(1 for row in grid.values() for e in row.values()
                 if e['status'] not in (NOT_RUN, STALE, INCOMPLETE, LEFT, NA))
    left = [f'{s} {n}' for s in every for n, e in grid[s].items() if e['status'] == LEFT]
    verdict = 'RED' if any(red(e) for row in grid.values() for e in row.values()) or \
        problems else 'GREEN'
    return {'grid': grid, 'problems': problems, 'differences': diffs, 'notes': notes,
            'totals': totals, 'judged': judged, 'left': left, 'verdict': verdict}


def floor(items: List[str], ran: List[str]) -> Tuple[List[str], List[str]]:
    """(report lines, problems) of the test command's floor: each of its @items must have @ran,
    or the run judged less than its floor (docs/budget.rst)."""
    if not items:
        return ['No floor: no cell among the targets.'], [f'the floor: {UNJUDGED}: no cell']
    return [f'- {i}: {"judged" if i in ran else UNJUDGED}' for i in items], [
        f'the floor: {UNJUDGED}: {i}' for i in items if i not in ran]


def exit_status(problems: List[str], verdict: str) -> int:
    """The exit status of a verdict: 2 when the harness failed on anything or the floor was not
    judged, else 1 when it is red, else 0."""
    return 2 if any(HARNESS in p or UNJUDGED in p for p in problems) else int(verdict == 'RED')


def sizes(grid: Dict[str, Dict[str, dict]], kinds: Dict[str, str], base: str, last: str,
          limit: float) -> Tuple[List[str], List[str]]:
    """(report lines, problems): text, data and bss of vmlinux and kernel/sched/ in every plain
    cell, baseline -> last step; text may not grow by more than @limit percent."""
    lines = [f'{base} -> {last}: text, data, bss (bytes) and the change of text.', '',
             '| cell | object | text | data | bss | text change |', '|---|---|---|---|---|---|']
    problems = []
    for name in [n for n, k in kinds.items() if k == 'cell']:
        if LEFT in (grid[base][name]['status'], grid[last][name]['status']):
            continue
        old, new = grid[base][name].get('sizes'), grid[last][name].get('sizes')
        if not old or not new:
            problems.append(f'size: {name}: no size to compare at {base if not old else last}')
            continue
        for obj in ('vmlinux', 'kernel/sched/built-in.a'):
            o, n = old[obj], new[obj]
            pct = 100.0 * (n[0] - o[0]) / o[0]
            over = f' **over {limit}%**' if pct > limit else ''
            if over:
                problems.append(f'size: {name}: text of {obj} grows by {n[0] - o[0]} bytes '
                                f'({pct:+.3f}%), over the {limit}% limit')
            cols = [f'{o[i]} -> {n[i]}' if o[i] != n[i] else str(o[i]) for i in range(3)]
            lines.append(f'| {name} | {obj} | {" | ".join(cols)} | '
                         f'{n[0] - o[0]:+d} ({pct:+.3f}%){over} |')
    return lines, problems


def code(tree: str, steps: List[Tuple[str, str]]) -> List[str]:
    """Report lines: kernel/sched/core.c's lines per step, and the diffstat of the whole series."""
    lines = ['| step | core.c lines |', '|---|---|']
    lines += [f'| {name} | '
              f'{run.git(tree, "show", f"{sha}:kernel/sched/core.c").stdout.count(chr(10))} |'
              for name, sha in steps]
    stat = run.git(tree, 'diff', '--stat=72', '--diff-algorithm=minimal', steps[0][1],
                   steps[-1][1]).stdout.rstrip()
    return lines + ['', '```', stat, '```']



def repeats(work: run.Work, kp, target: config.Target, step: str, sha: str, count: int) -> dict:
    """The repeated boots of a cell (run.repeat()): each run is judged for itself, then against the
    first run of its variant (a case whose result differs is flaky); the first run of each variant
    against the cell as it is (a difference there is listed, not a flake: a case may skip with 2
    CPUs). Red on a flake, a failed run, a missing or stale run."""
    top = os.path.join(work.results, 'repeat', target.name)
    out = {'status': 'green', 'step': step, 'variants': {}, 'cross': {}, 'problems': []}
    first: Dict[str, parse.Results] = {}
    config_at = os.path.join(work.out(step, target.name), 'config')
    for name, cpus, _ in run.variants(target, config_at, work.tree):
        want = config.key(dict(run.inputs_of(target, sha), variant=name, count=str(count)))
        flaky: Dict[str, int] = {}
        seconds = []
        for i in range(1, count + 1):
            where = os.path.join(top, name, f'{i:03d}')
            res = run.load_json(os.path.join(where, 'result.json'))
            if why := run.stale(res, want):
                out['problems'].append(f'{name}/{i:03d}: {why}')
                continue
            e = booted(kp, target, res, where, cpus)
            seconds.append(res['run']['seconds'])
            out['problems'] += [f'{name}/{i:03d}: {p}' for p in e['problems'] + e['failures']]
            if name not in first:
                first[name] = e['results']
            for case in differences(first[name], e['results'], 'first run'):
                flaky[case] = flaky.get(case, 0) + 1
        out['variants'][name] = {'flaky': flaky, 'runs': len(seconds), 'cpus': cpus,
                                 'seconds': [min(seconds), max(seconds)] if seconds else []}
    names = list(first)
    for name in names[1:]:
        d = differences(first[names[0]], first[name], names[0])
        if d:
            out['cross'][name] = d
    flakes = sum(len(v['flaky']) for v in out['variants'].values())
    if flakes or out['problems']:
        out['status'] = 'red'
    runs = sum(v['runs'] for v in out['variants'].values())
    out['line'] = (f'{target.name} at {step}: {out["status"].upper()}: {runs} run(s) in '
                   f'{len(out["variants"])} variant(s), {flakes} flaky case(s), '
                   f'{len(out["problems"])} failed run problem(s)')
    return out


def upstream(work: run.Work, kp, target: config.Target, sha: str, suites: List[str]) -> dict:
    """The upstream-form tests (results/PKG/upstream/TARGET): green when the run is fresh, every
    test passed, and every suite the patches add (@suites) reported ok."""
    e = entry(work, kp, target, 'upstream', sha)
    if not e['status']:
        missing = [s for s in suites if e['results'].get(s, ('',))[0] != parse.PASS]
        e['problems'] += [f'suite {s} did not pass' for s in missing] + \
            ([] if suites else ['the upstream-form patches add no KUnit suite'])
        e['status'] = 'red' if e['problems'] or e['failures'] else 'green'
    return e

