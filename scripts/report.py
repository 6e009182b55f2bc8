#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a matrix run and write its reports.

Split as kunit_tool is split:
- loading and normalizing: for every step and cell, what
  scripts/run-cell.sh kept (meta, test.log, kunit.json) is read; the raw
  KTAP is parsed with the kernel tree's own parser
  (tools/testing/kunit/kunit_parser.py) into "suite.case[.parameter] ->
  status [reason]"; what scripts/build-only.sh kept likewise;
- judging (judge()): every step is compared with the baseline step of the
  same cell, and every problem is named, into one data structure, written
  as report.json: steps, cells, statuses, differences, problems, sizes,
  verdict; scripts/results.py is how the other tools read it;
- rendering (render_markdown()): report.md for reviewers, from that data
  alone.

A result is stale when it ran another commit, or when any other input that
decides it (scripts/matrix.py inputs: kunitconfig, the cell's entry in
ci/matrix.json, QEMU arguments and version, compiler version, time-out,
added Kconfig) differs from the current one; incomplete when its meta has
no "complete=y" (a run stopped by a signal, or one that died).

Exit status: 0 when every requested step and cell ran (or was left to the
main job by the plan), nothing failed or crashed, every step is identical
to the baseline in every cell, every requested build-only configuration
built without a W=1 warning the baseline does not have, and (with
--size-limit) no text grew by more than the limit; 1 otherwise; 2 on a
usage or input error.
"""

import argparse
import io
import json
import os
import re
import subprocess
import sys
import traceback
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matrix  # noqa: E402 pylint: disable=wrong-import-position
import results as results_mod  # noqa: E402 pylint: disable=wrong-import-position
import steps as steps_mod  # noqa: E402 pylint: disable=wrong-import-position

BASELINE = steps_mod.BASELINE

# Normalized statuses.
PASS, SKIP, FAIL, CRASH = 'PASS', 'SKIP', 'FAIL', 'CRASH'

# Statuses of a cell at a step (report.json "status").
NOT_RUN, INCOMPLETE, BUILD_FAILED, STALE = 'not run', 'incomplete', 'build failed', 'stale'
LEFT = 'left to the main job'
SAME, DIFFERS, BASE, BASE_RED = 'same', 'differs', 'baseline', 'baseline not green'

# Kernel reports that make a run red even when every test passed: WARN_ON,
# BUG, lockdep, sleeping in atomic context, RCU misuse, sanitizers.
SPLAT = re.compile(r'\b(WARNING|BUG|INFO): |kernel BUG at |Oops|Kernel panic|'
                   r'Internal error: |Unable to handle kernel |general protection fault|'
                   r'possible (circular|recursive) locking|inconsistent lock state|'
                   r'suspicious RCU usage|sleeping function called from invalid context|'
                   r'UBSAN: |KASAN: ')

# What kmemleak prints of each leak it reports.
KMEMLEAK_LEAK = re.compile(r'unreferenced object 0x')
KMEMLEAK_PID = re.compile(r'^\s*comm "(.*)", pid (\d+),')
KMEMLEAK_FRAME = re.compile(r'^\s*\[<[^>]*>\] ([A-Za-z0-9_.]+)\+0x')


class ReportError(Exception):
    """Bad input: the report cannot be made."""


def load_parser(tree: str):
    """Import kunit_parser from the kernel tree, quiet, keeping skip reasons.

    The tree's parser drops the text after "# SKIP"; wrap its result-line
    function so that every Test it fills in also gets .skip_reason.
    """
    path = os.path.join(tree, 'tools', 'testing', 'kunit')
    if not os.path.isfile(os.path.join(path, 'kunit_parser.py')):
        raise ReportError(f'no kunit_parser.py under {path}: run scripts/prepare-tree.sh')
    sys.dont_write_bytecode = True
    if path not in sys.path:
        sys.path.insert(0, path)
    import kunit_parser  # pylint: disable=import-outside-toplevel
    import kunit_printer  # pylint: disable=import-outside-toplevel

    if getattr(kunit_parser, '_sched_tinify_hooked', False):
        return kunit_parser
    kunit_parser.stdout = kunit_printer.Printer(io.StringIO())
    original = kunit_parser.parse_test_result

    def parse_test_result(lines, test, expected_num):
        line = lines.peek() if lines else ''
        ok = original(lines, test, expected_num)
        skip = kunit_parser.TEST_RESULT_SKIP.match(line) if ok else None
        test.skip_reason = skip.group(5).strip() if skip else ''
        return ok

    kunit_parser.parse_test_result = parse_test_result
    kunit_parser._sched_tinify_hooked = True
    return kunit_parser


@dataclass
class Cell:
    """What one cell produced at one step."""
    step: str
    cell: str
    status: str = ''
    meta: Dict[str, str] = field(default_factory=dict)
    results: Dict[str, Tuple[str, str]] = field(default_factory=dict)
    counts: Dict[str, int] = field(default_factory=dict)
    problems: List[str] = field(default_factory=list)
    failures: List[str] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.failures


def read_meta(path: str) -> Dict[str, str]:
    meta = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            key, sep, value = line.rstrip('\n').partition('=')
            if sep:
                meta[key] = value
    return meta


def normalize(parser, log_lines: List[str]):
    """KTAP console output -> ({path: (status, reason)}, leaf counts, errors)."""
    status_of = {
        parser.TestStatus.SUCCESS: PASS,
        parser.TestStatus.SKIPPED: SKIP,
        parser.TestStatus.FAILURE: FAIL,
    }
    root = parser.parse_run_tests(log_lines)
    results: Dict[str, Tuple[str, str]] = {}
    counts = {PASS: 0, SKIP: 0, FAIL: 0, CRASH: 0}
    errors = []
    if root.status == parser.TestStatus.FAILURE_TO_PARSE_TESTS:
        return results, counts, ['no KTAP output (kernel did not boot or crashed early)']
    if root.status == parser.TestStatus.NO_TESTS:
        errors.append('no tests ran')

    def walk(test, prefix: str, index: int) -> None:
        name = test.name or f'#{index}'
        path = f'{prefix}.{name}' if prefix else name
        status = status_of.get(test.status, CRASH)
        reason = getattr(test, 'skip_reason', '') if status == SKIP else ''
        if path in results:
            errors.append(f'{path}: reported twice')
        results[path] = (status, reason)
        if not test.subtests:
            counts[status] += 1
        for i, sub in enumerate(test.subtests, 1):
            walk(sub, path, i)

    for i, suite in enumerate(root.subtests, 1):
        walk(suite, '', i)
    if root.counts.errors:
        errors.append(f'{root.counts.errors} KTAP parse error(s)')
    return results, counts, errors


def json_statuses(path: str) -> Dict[str, str]:
    """kunit.py's JSON (KernelCI format) -> {path: PASS|SKIP|FAIL|ERROR}."""
    with open(path, encoding='utf-8') as f:
        top = json.load(f)
    out = {}

    def walk(group, prefix: str) -> None:
        for case in group.get('test_cases', []):
            out[f'{prefix}{case["name"]}'] = case['status']
        for sub in group.get('sub_groups', []):
            walk(sub, f'{prefix}{sub["name"]}.')

    walk(top, '')
    return out


def check_json(cell: Cell, path: str) -> None:
    """kunit.py's own verdicts must agree with the parse of the raw log."""
    try:
        statuses = json_statuses(path)
    except (OSError, ValueError, KeyError) as e:
        cell.problems.append(f'kunit.json unreadable: {e}')
        return
    want = {PASS: 'PASS', SKIP: 'SKIP', FAIL: 'FAIL', CRASH: 'ERROR'}
    for name, status in sorted(statuses.items()):
        ours = cell.results.get(name)
        if ours is None:
            # kunit.json names a crashed, unnamed test ''; the log has '#N'.
            if name.rsplit('.', 1)[-1]:
                cell.problems.append(f'kunit.json has {name}, the log does not')
        elif want[ours[0]] != status and not (ours[0] == CRASH and status == 'FAIL'):
            cell.problems.append(f'kunit.json says {name} {status}, the log {ours[0]}')


def check_meta(meta: Dict[str, str], sha: Optional[str],
               inputs: Optional[Dict[str, str]]) -> Tuple[str, List[str]]:
    """(status, problems) of a result's meta: incomplete, stale or ''."""
    if meta.get('complete') != 'y':
        why = (f'interrupted by {meta["interrupted"]}' if meta.get('interrupted')
               else 'the run did not finish')
        return INCOMPLETE, [f'incomplete: {why}']
    problems = []
    if sha and meta.get('sha') != sha:
        problems.append(f'stale: ran {meta.get("sha", "?")[:12]}, step is {sha[:12]}')
    for key, value in (inputs or {}).items():
        old = meta.get(f'input_{key}')
        if old is None:
            problems.append(f'stale: no {key} recorded')
        elif old != value:
            problems.append(f'stale: {key} was "{old}", is "{value}"')
    # An input the result had and the current run has not (a debug run's).
    if inputs is not None:
        problems.extend(f'stale: {k[6:]} was "{v}", is not an input now'
                        for k, v in sorted(meta.items())
                        if k.startswith('input_') and k[6:] not in inputs)
    return (STALE if problems else ''), problems


def kmemleak_leaks(lines: List[str]) -> List[Tuple[str, str, str]]:
    """Every leak kmemleak printed: (its "unreferenced object" line, the
    comm and pid of the allocation, as "comm pid", and its backtrace, the
    function names joined by spaces). A leak's block is the indented lines
    after its first."""
    out = []
    for i, line in enumerate(lines):
        if not KMEMLEAK_LEAK.search(line):
            continue
        who, trace = '', []
        for more in lines[i + 1:]:
            if not more[:1].isspace() or KMEMLEAK_LEAK.search(more):
                break
            m = KMEMLEAK_PID.search(more)
            if m:
                who = f'{m.group(1)} {m.group(2)}'
            m = KMEMLEAK_FRAME.search(more)
            if m:
                trace.append(m.group(1))
        out.append((line.strip(), who, ' '.join(trace)))
    return out


def boot_leak(who: str, trace: str) -> bool:
    """A leak that start_kernel() made on the boot CPU, before kernel_init
    (pid 1, where the suites run) and every kthread exist: comm swapper/0,
    pid 0, start_kernel in its backtrace. (Other pid 0 allocations -- the
    idle tasks, hard and soft interrupts, which run timers and RCU
    callbacks the suites cause -- count.)"""
    return who == 'swapper/0 0' and 'start_kernel' in trace.split()


def kmemleak_problems(lines: List[str]) -> Tuple[List[str], List[str]]:
    """A debug cell's kmemleak scan after the suites (scripts/kmemleak-init.c):
    (problems, notes). It must have finished and found no leak but those of
    early boot (boot_leak()), which are notes."""
    leaks = kmemleak_leaks(lines)
    ours = [line for line, who, trace in leaks if not boot_leak(who, trace)]
    boot = [line for line, who, trace in leaks if boot_leak(who, trace)]
    out, notes = [], []
    if ours:
        out.append(f'kmemleak: {len(ours)} leak(s) reported, first: {ours[0][:160]}')
    if boot:
        notes.append(f'kmemleak: {len(boot)} leak(s) allocated in early boot (start_kernel(), '
                     f'pid 0, before the suites), not counted; first: {boot[0][:160]}')
    errors = [line.strip() for line in lines if 'kmemleak-init: error:' in line]
    out.extend(f'kmemleak: {e}' for e in errors[:1])
    off = [line.strip() for line in lines if 'Kernel memory leak detector disabled' in line]
    out.extend(f'kmemleak: {e[:160]}' for e in off[:1])
    if not any('kmemleak-init: done:' in line for line in lines) and not errors:
        out.append('kmemleak: the scan after the suites did not finish (no "kmemleak-init: done")')
    return out, notes


def load_cell(parser, results_dir: str, step: str, cell_name: str,
              sha: Optional[str], cell_def: Optional[dict] = None,
              inputs: Optional[Dict[str, str]] = None) -> Cell:
    cell = Cell(step, cell_name)
    d = os.path.join(results_dir, step, cell_name)
    meta_path = os.path.join(d, 'meta')
    if not os.path.isfile(meta_path):
        cell.status = NOT_RUN
        cell.problems.append(NOT_RUN)
        return cell
    cell.meta = read_meta(meta_path)
    cell.status, cell.problems = check_meta(cell.meta, sha, inputs)
    if cell.status == INCOMPLETE:
        return cell
    if cell.meta.get('build_rc', '0') != '0':
        cell.status = BUILD_FAILED
        cell.problems.append(BUILD_FAILED)
        return cell
    if cell.meta.get('timed_out') == 'y':
        cell.problems.append('QEMU timed out')
    if cell_def:
        if cell.meta.get('config_smp') != ('y' if cell_def['smp'] else 'n'):
            cell.problems.append(f'CONFIG_SMP={cell.meta.get("config_smp")} in a '
                                 f'{"SMP" if cell_def["smp"] else "UP"} cell')
        if cell.meta.get('booted_cpus') != str(cell_def['cpus']):
            cell.problems.append(f'{cell.meta.get("booted_cpus")} CPU(s) up, '
                                 f'cell wants {cell_def["cpus"]}')
    log_path = os.path.join(d, 'test.log')
    try:
        with open(log_path, encoding='utf-8', errors='backslashreplace') as f:
            lines = f.readlines()
    except OSError:
        lines = []
    splats = [line.strip() for line in lines if SPLAT.search(line)]
    if splats:
        cell.problems.append(f'kernel splat: {len(splats)} line(s), first: {splats[0][:160]}')
    if cell.meta.get('kmemleak') == 'y':
        probs, cell.notes = kmemleak_problems(lines)
        cell.problems.extend(probs)
    cell.results, cell.counts, errors = normalize(parser, lines)
    cell.problems.extend(errors)
    cell.failures = [f'{p}: {s}' for p, (s, _) in sorted(cell.results.items())
                     if s in (FAIL, CRASH)]
    if cell.meta.get('exec_rc', '0') != '0' and not cell.failures:
        cell.problems.append(f'kunit.py exec exited {cell.meta["exec_rc"]} with no failed test')
    json_path = os.path.join(d, 'kunit.json')
    if os.path.isfile(json_path):
        check_json(cell, json_path)
    else:
        cell.problems.append('no kunit.json')
    return cell


def same_as_plain(parser, plain_dir: str, step: str, cell_def: dict, sha: str,
                  results: Dict[str, Tuple[str, str]],
                  inputs: Optional[Dict[str, str]]) -> List[str]:
    """A debug cell against the plain cell at the same step: the plain
    result, judged as the plain report would (complete, of this commit,
    made with the plain cell's current @inputs, green), gives one problem
    per difference, or why there is nothing to compare with."""
    name = cell_def['name']
    plain = load_cell(parser, plain_dir, step, name, sha, cell_def, inputs)
    rerun = f'scripts/matrix.sh --cells {name} --steps {step}'
    if plain.status == NOT_RUN:
        return [f'no result of the plain cell at this step in {plain_dir} to compare '
                f'with ({rerun})']
    if plain.status or not plain.ok:
        why = (plain.problems + plain.failures + [plain.status])[0]
        return [f'the plain cell\'s result in {plain_dir} is not a green, fresh one '
                f'({why}): run {rerun}']
    return [f'differs from the plain cell: {x}'
            for x in differences(plain.results, results, 'plain cell')]


def results_lines(results: Dict[str, Tuple[str, str]]) -> List[str]:
    """Normalized results as results.txt lines: path, status and, for a
    skip, its reason, tab-separated, sorted by path."""
    return [f'{p}\t{s}\t{r}' if r else f'{p}\t{s}' for p, (s, r) in sorted(results.items())]


def write_results_txt(results_dir: str, data: dict) -> None:
    """The normalized results of every judged cell, one per line, beside
    the raw ones (results.txt: diff two to see a difference)."""
    for step, row in data['grid'].items():
        for name, entry in row.items():
            d = os.path.join(results_dir, step, name)
            if not entry['results'] or not os.path.isdir(d):
                continue
            with open(os.path.join(d, 'results.txt'), 'w', encoding='utf-8') as f:
                f.write(''.join(line + '\n' for line in results_lines(entry['results'])))


def differences(base: Dict[str, Tuple[str, str]],
                other: Dict[str, Tuple[str, str]], label: str = 'baseline') -> List[str]:
    """Every way two normalized results differ, one line each; @label
    names what @base is."""
    out = []
    for path in sorted(set(base) | set(other)):
        a, b = base.get(path), other.get(path)
        if a == b:
            continue
        if b is None:
            out.append(f'missing: {path} ({label} {fmt(a)})')
        elif a is None:
            out.append(f'new: {path} {fmt(b)}')
        else:
            out.append(f'changed: {path}: {fmt(a)} -> {fmt(b)}')
    return out


def fmt(result: Tuple[str, str]) -> str:
    status, reason = result
    return f'{status} ({reason})' if reason else status


def read_size(path: str) -> Dict[str, List[int]]:
    """The size file of run-cell.sh: object -> [text, data, bss, dec]."""
    sizes = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            parts = line.split()
            if len(parts) == 5:
                sizes[parts[0]] = [int(x) for x in parts[1:]]
    return sizes


def judge_sizes(results: str, base: str, last: str, cells: List[str],
                limit: float) -> Tuple[List[dict], List[str]]:
    """Size rows (baseline -> last step), and problems (text over limit %)."""
    rows, problems = [], []
    for c in cells:
        try:
            old = read_size(os.path.join(results, base, c, 'size'))
            new = read_size(os.path.join(results, last, c, 'size'))
        except OSError as e:
            problems.append(f'{c}: no size to compare ({e.filename})')
            continue
        for obj in ('vmlinux', 'kernel/sched/built-in.a'):
            if obj not in old or obj not in new:
                problems.append(f'{c}: no size of {obj}')
                continue
            o, n = old[obj], new[obj]
            delta = n[0] - o[0]
            pct = 100.0 * delta / o[0] if o[0] else 0.0
            over = pct > limit
            if over:
                problems.append(f'{c}: text of {obj} grows by {delta} bytes '
                                f'({pct:+.3f}%), over the {limit}% limit')
            rows.append({'cell': c, 'object': obj, 'old': o, 'new': n,
                         'text_delta': delta, 'text_pct': round(pct, 3), 'over': over})
    return rows, problems


def render_sizes(base: str, last: str, rows: List[dict], limit: float) -> List[str]:
    lines = [f'## Size: {base} -> {last}', '',
             'text, data, bss of each object (bytes), with the change of text.', '',
             '| cell | object | text | data | bss | text change |',
             '|---|---|---|---|---|---|']
    for r in rows:
        o, n = r['old'], r['new']
        cols = [f'{o[i]} -> {n[i]}' if o[i] != n[i] else str(o[i]) for i in range(3)]
        mark = f' **over {limit}%**' if r['over'] else ''
        lines.append(f'| {r["cell"]} | {r["object"]} | ' + ' | '.join(cols) +
                     f' | {r["text_delta"]:+d} ({r["text_pct"]:+.3f}%){mark} |')
    lines.append('')
    return lines


def git(tree: str, *argv: str) -> str:
    return subprocess.run(['git', '-C', tree, *argv], check=True,
                          capture_output=True, text=True).stdout


def judge_code(tree: str, steps: List[Tuple[str, str]]) -> dict:
    """Lines of core.c per step and the diffstat of the whole series."""
    return {
        'core_c_lines': {name: git(tree, 'show', f'{sha}:kernel/sched/core.c').count('\n')
                         for name, sha in steps},
        'diffstat': git(tree, 'diff', '--stat=72', '--diff-algorithm=minimal',
                        steps[0][1], steps[-1][1]).rstrip(),
    }


def render_code(code: dict) -> List[str]:
    lines = ['## Code: kernel/sched/core.c per step, and the series diffstat', '',
             '| step | core.c lines |', '|---|---|']
    lines += [f'| {name} | {n} |' for name, n in code['core_c_lines'].items()]
    return lines + ['', '```', code['diffstat'], '```', '']


def judge_builds(results: str, steps: List[str], sha_of: Dict[str, str],
                 builds: List[str], inputs: Optional[Callable[[str], Dict[str, str]]] = None,
                 planned: Optional[Callable[[str, str], bool]] = None
                 ) -> Tuple[Dict[str, Dict[str, dict]], List[str]]:
    """{step: {build: {status, text, warnings, new}}}, and problems."""
    grid: Dict[str, Dict[str, dict]] = {}
    problems = []
    base_warnings: Dict[str, Optional[set]] = {}
    base_scope: Dict[str, str] = {}
    for step in dict.fromkeys([BASELINE] + steps):
        for b in builds:
            d = os.path.join(results, step, b)
            entry = {'status': '', 'warnings': [], 'new_warnings': [], 'left': False}
            try:
                meta = read_meta(os.path.join(d, 'meta'))
            except OSError:
                meta = {}
            status, probs = (NOT_RUN, [NOT_RUN]) if not meta else \
                check_meta(meta, sha_of[step], inputs(b) if inputs else None)
            if planned and not planned(step, b) and status in (NOT_RUN, INCOMPLETE, STALE):
                entry.update(status=LEFT, text='left to the main job', left=True)
            elif status:
                entry.update(status=status, text=status.upper())
                problems.extend(f'{step} {b}: {p}' for p in probs)
            elif meta.get('build_rc') != '0':
                entry.update(status=BUILD_FAILED, text='BUILD FAILED')
                problems.append(f'{step} {b}: build failed (see {d}/build.log)')
            else:
                with open(os.path.join(d, 'warnings'), encoding='utf-8') as f:
                    warnings = sorted({w.strip() for w in f if w.strip()})
                entry.update(status='built', warnings=warnings,
                             build_seconds=meta.get('build_seconds', '?'))
                text = 'built'
                if meta.get('scope') == 'kernel/sched':
                    text += ' kernel/sched/ only'
                if meta.get('needs_section') == 'left out':
                    text += (f' without the {meta.get("needs")} section (no such option '
                             f'here)')
                text += f', {len(warnings)} warning(s)'
                if step == BASELINE:
                    base_warnings[b] = set(warnings)
                    base_scope[b] = meta.get('scope', 'vmlinux')
                elif base_warnings.get(b) is not None:
                    # A baseline built kernel/sched/ only has no warnings of
                    # the other files the series touches: compare those of
                    # kernel/sched/ only.
                    mine = set(warnings)
                    if base_scope.get(b) == 'kernel/sched':
                        mine = {w for w in mine if w.startswith('kernel/sched/')}
                    new = sorted(mine - base_warnings[b])
                    entry['new_warnings'] = new
                    text += f', **{len(new)} NEW**' if new else ', none new'
                    problems.extend(f'{step} {b}: new W=1 warning: {w}' for w in new)
                else:
                    text += ' (no baseline to compare)'
                    problems.append(f'{step} {b}: no baseline build to compare with')
                entry['text'] = text
            if step == BASELINE and b not in base_warnings:
                base_warnings[b] = None
            entry['judged'] = entry['status'] == 'built'
            grid.setdefault(step, {})[b] = entry
    return grid, problems


def render_builds(grid: Dict[str, Dict[str, dict]], steps: List[str],
                  builds: List[str]) -> List[str]:
    lines = ['## Build-only configurations (W=1)', '',
             'Each: whether it built, and its W=1 warnings in kernel/sched/ and in '
             'the files the series touches (kernel/sched/ only where the '
             'baseline was built kernel/sched/ only). A warning the baseline '
             'does not have is a problem.', '',
             '| step | ' + ' | '.join(builds) + ' |',
             '|---|' + '---|' * len(builds)]
    for step in steps:
        lines.append(f'| {step} | ' + ' | '.join(grid[step][b]['text'] for b in builds) + ' |')
    lines.append('')
    return lines


def package_warning(installed: str, tested: str) -> Optional[str]:
    """A loud line when the installed package is not the tested one."""
    if not tested or installed == tested:
        return None
    try:
        newer = subprocess.run(['dpkg', '--compare-versions', installed, 'gt', tested],
                               check=False).returncode == 0
    except OSError:
        newer = None
    how = {True: 'newer than', False: 'older than', None: 'not'}[newer]
    return (f'the installed package version {installed} is {how} the version the series '
            f'is tested on ({tested}, "version" in ci/matrix.json): these results are '
            'not those of the tested tree')


def judge_upstream(results: str, sha: Optional[str]) -> Optional[dict]:
    """The last run of the upstream-form patches (scripts/upstream-kunit.sh).

    None when there is none; 'stale' when it ran on another commit than the
    one prepare-tree.sh composed now (@sha): then it does not count.
    """
    d = os.path.join(results, 'upstream-kunit')
    try:
        meta = read_meta(os.path.join(d, 'meta'))
    except OSError:
        return None
    try:
        with open(os.path.join(d, 'summary'), encoding='utf-8') as f:
            line = f.read().strip()
    except OSError:
        line = ''
    if sha and meta.get('sha') != sha:
        status = 'stale'
    elif meta.get('complete') != 'y' or not line:
        status = 'incomplete'
    else:
        status = 'green' if ': GREEN: ' in line else 'red'
    return {'status': status, 'line': line, 'sha': meta.get('sha', ''),
            'cell': meta.get('cell', '')}


def judge_peer(results: str, steps: List[Tuple[str, str]],
               inputs: Optional[Dict[str, str]] = None) -> Dict[str, dict]:
    """The peer check (scripts/peer-check.sh: chrt's requests in a tiny arm
    kernel) at those of @steps ([(name, sha)]) it ran at: {step: {'status',
    'line'}}, status green, red, harness (it could not tell), incomplete,
    or stale (made at another commit, or with other @inputs, such as
    another expected file: it does not count)."""
    out = {}
    for step, sha in steps:
        d = os.path.join(results, 'peer', step)
        try:
            meta = read_meta(os.path.join(d, 'meta'))
        except OSError:
            continue
        try:
            with open(os.path.join(d, 'verdict'), encoding='utf-8') as f:
                line = f.read().strip()
        except OSError:
            line = ''
        if meta.get('sha') != sha or \
                (inputs is not None and check_meta(dict(meta, complete='y'), None,
                                                   inputs)[0] == STALE):
            status = 'stale'
        elif ': GREEN: ' in line:
            status = 'green'
        elif ': RED: ' in line:
            status = 'red'
        elif ': HARNESS: ' in line:
            status = 'harness'
        else:
            status = 'incomplete'
        out[step] = {'status': status, 'line': line}
    return out


def judge_tiny(results: str, steps: List[Tuple[str, str]], tiny: List[str],
               planned: Optional[Dict[str, List[str]]] = None,
               inputs: Optional[Callable[[str], Dict[str, str]]] = None) -> dict:
    """The tiny cells (scripts/tiny-cells.sh) at @steps ([(name, sha)]):
    {cell: {step: {'status', 'line'}}}, status green, red, n/a,
    incomplete, stale (made at another commit, or with other inputs than
    inputs(cell) gives: its kunitconfig, its expected file, ...), not run,
    or left to the main job (a step not in @planned[cell], when a plan
    names the steps)."""
    out: Dict[str, Dict[str, dict]] = {}
    for c in tiny:
        row = out.setdefault(c, {})
        for step, sha in steps:
            d = os.path.join(results, step, c)
            try:
                meta = read_meta(os.path.join(d, 'meta'))
            except OSError:
                left = planned is not None and step not in planned.get(c, [])
                row[step] = {'status': LEFT if left else 'not run', 'line': ''}
                continue
            try:
                with open(os.path.join(d, 'verdict'), encoding='utf-8') as f:
                    line = f.read().strip()
            except OSError:
                line = ''
            stale_inputs = inputs is not None and not meta.get('na') and \
                meta.get('complete') == 'y' and \
                check_meta(meta, None, inputs(c))[0] == STALE
            if meta.get('sha') != sha or stale_inputs:
                status = 'stale'
            elif meta.get('complete') != 'y' or not line:
                status = 'incomplete'
            elif meta.get('na'):
                status = 'n/a'
            else:
                status = 'green' if ': GREEN: ' in line else 'red'
            if planned is not None and step not in planned.get(c, []) and \
                    status in ('stale', 'incomplete', 'not run'):
                status, line = LEFT, ''
            row[step] = {'status': status, 'line': line}
    return out


KCONFIG_KUNIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'kunit',
                             'kernel', 'sched', 'Kconfig.kunit')


def absent_suites(needs: str, path: str = KCONFIG_KUNIT) -> List[str]:
    """The test options of kunit/ that depend on @needs (not on its
    absence): what a tiny cell that turns @needs off does not build, with
    the reason, one line each."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    out = []
    for opt, prompt, deps in re.findall(r'^config (\w+_KUNIT_TEST)\n\tbool "([^"]*)".*\n'
                                        r'(?:\t.*\n)*?\tdepends on (.*)$', text, re.M):
        if re.search(rf'(?<![!\w]){re.escape(needs)}\b', deps):
            out.append(f'{opt} ("{prompt}"): depends on {deps}')
    return out


def render_tiny(tiny: dict, steps: List[str],
                absent: Optional[Dict[str, List[str]]] = None) -> List[str]:
    lines = ['## Tiny cells (scripts/tiny-cells.sh)', '',
             'Uniprocessor kernels with part of the scheduler compiled out, at '
             'the steps that have the option; each judged against its own '
             'expected results (ci/matrix.json "expected"), not the baseline.', '',
             '| step | ' + ' | '.join(tiny) + ' |', '|---|' + '---|' * len(tiny)]
    for step in steps:
        lines.append(f'| {step} | ' + ' | '.join(
            tiny[c][step]['status'] for c in tiny) + ' |')
    lines.append('')
    for c in tiny:
        for step in steps:
            e = tiny[c][step]
            if e['status'] not in ('n/a', 'not run') and e['line']:
                lines.append(f'- {e["line"]}')
    lines.append('')
    for needs, suites in (absent or {}).items():
        lines += [f'Not built in the tiny cells that turn CONFIG_{needs} off (their '
                  f'Kconfig option needs it; kunit/kernel/sched/Kconfig.kunit):', '']
        lines += [f'- {s}' for s in suites] + ['']
    return lines


def judge_reliability(args, sha_of: Dict[str, str]) -> dict:
    """The repeats (scripts/repeat.sh: RESULTS/repeat/CELL/summary.json)
    and the debug cells (scripts/debug-cells.sh: DEBUG_ROOT/NAME/PKG/
    report.json) found on disk. Each gets a status: green, red, stale (of
    another commit or other inputs than the current ones) or not run; a
    repeat or debug cell this run was to produce (--repeat-cells,
    --debug-cells) that is not green is a problem."""
    want_rep = [c for c in (getattr(args, 'repeat_cells', '') or '').split(',') if c]
    want_dbg = [c for c in (getattr(args, 'debug_cells', '') or '').split(',') if c]
    data = matrix.load()
    out: dict = {'repeat': {}, 'debug': {}, 'problems': []}
    rep_root = os.path.join(args.results, 'repeat')
    names = sorted(set(want_rep) | set(os.listdir(rep_root) if os.path.isdir(rep_root) else []))
    for c in names:
        d = os.path.join(rep_root, c)
        e = {'status': NOT_RUN, 'line': '', 'command': f'scripts/repeat.sh --cells {c}'}
        try:
            with open(os.path.join(d, 'summary.json'), encoding='utf-8') as f:
                summ = json.load(f)
            meta = read_meta(os.path.join(d, 'meta'))
        except (OSError, ValueError):
            summ = None
        if summ:
            entry = matrix.select(data, c)[0] if c in {x['name'] for x in data['cells']} else None
            status, why = check_meta({**meta, 'complete': 'y'},
                                     sha_of.get(summ['step'], 'not a step now'),
                                     matrix.inputs(entry) if entry else None)
            if c in want_rep and summ['step'] != list(sha_of)[-1]:
                status, why = STALE, why + [f'at {summ["step"]}, not at the last step']
            e.update(line=summ['line'], totals=summ['totals'], step=summ['step'],
                     variants={v: {k: x[k] for k in ('runs', 'cpus', 'load', 'seconds')}
                               for v, x in summ['variants'].items()},
                     flaky={v: x['flaky'] for v, x in summ['variants'].items() if x['flaky']},
                     failed=[p for x in summ['variants'].values() for p in x['failed']][:10],
                     cross=summ.get('cross', {}),
                     command=f'scripts/repeat.sh --cells {c} --step {summ["step"]} '
                             f'--count {summ["count"]}')
            e['status'] = STALE if status else summ['verdict'].lower()
            if status:
                e['why'] = why
        out['repeat'][c] = e
        if c in want_rep and e['status'] != 'green':
            out['problems'].append(f'repeat {c}: {e["status"]}: {e["line"] or "no summary"}')
    dbg_root = getattr(args, 'debug_root', '') or ''
    for entry in data.get('debug', []):
        n = entry['name']
        e = {'status': NOT_RUN, 'line': '', 'cell': entry['cell'],
             'command': f'scripts/debug-cells.sh --cells {n}'}
        path = os.path.join(dbg_root, n, args.package, 'report.json')
        try:
            with open(path, encoding='utf-8') as f:
                rep = json.load(f)
        except (OSError, ValueError):
            rep = None
        if rep:
            steps = [x['name'] for x in rep['steps']]
            old = [x['name'] for x in rep['steps'] if sha_of.get(x['name']) != x['sha']]
            # Made with other options, kbuild variables or kmemleak init
            # than the current ones: stale too.
            cell_def = matrix.select(data, entry['cell'])[0]
            want = debug_inputs(entry, cell_def)
            for x in steps:
                try:
                    meta = read_meta(os.path.join(dbg_root, n, args.package, x, entry['cell'],
                                                  'meta'))
                except OSError:
                    continue
                _, why = check_meta({**meta, 'complete': 'y'}, None, want)
                if why and x not in old:
                    old.append(f'{x} ({why[0]})')
            judged = sum(1 for row in rep['grid'].values() for x in row.values() if x['judged'])
            e['notes'] = rep.get('notes', [])[:10]
            e.update(steps=steps, judged=judged, problems=rep['problems'][:10],
                     n_problems=len(rep['problems']),
                     report=os.path.relpath(os.path.join(os.path.dirname(path), 'report.md'),
                                            os.path.dirname(args.results)),
                     line=f'{rep["verdict"]}: {judged} cell step(s) judged '
                          f'({steps[0]} to {steps[-1]}), {len(rep["problems"])} problem(s)')
            if len(steps) < len(sha_of):
                e['command'] += f' --steps {",".join(steps)}'
            e['status'] = STALE if old else rep['verdict'].lower()
            if old:
                e['why'] = [f'{", ".join(old)}: of another commit or other inputs']
            # At the last step, the self-check must have seen every planted
            # bug reported (scripts/debug-selfcheck.sh).
            last = list(sha_of)[-1]
            if last in steps and e['status'] == 'green':
                sc = os.path.join(dbg_root, n, 'selfcheck')
                try:
                    sc_meta = read_meta(os.path.join(sc, 'meta'))
                    with open(os.path.join(sc, 'verdict'), encoding='utf-8') as f:
                        e['selfcheck'] = f.read().strip()
                except OSError:
                    sc_meta, e['selfcheck'] = {}, ''
                with open(os.path.join(os.path.dirname(matrix.MATRIX), '..', 'scripts',
                                       'debug-selfcheck.c'), 'rb') as f:
                    planted = matrix.digest(f.read())
                if sc_meta.get('sha') != sha_of[last] or \
                        sc_meta.get('source_sha256') != planted or \
                        'selfcheck: GREEN' not in e['selfcheck']:
                    e['status'] = 'red'
                    e['problems'].append('the self-check did not see every planted bug '
                                         f'reported: {e["selfcheck"] or "not run"} '
                                         f'(scripts/debug-selfcheck.sh --cells {n})')
        out['debug'][n] = e
        if n in want_dbg and e['status'] != 'green':
            out['problems'].append(f'debug cell {n}: {e["status"]}: {e["line"] or "no report"}')
    return out


def debug_inputs(entry: dict, cell_def: dict) -> Dict[str, str]:
    """The current inputs of a debug cell's results: the cell's, under the
    environment scripts/debug-cells.sh gives scripts/run-cell.sh."""
    env = {k: v for k, v in os.environ.items() if k not in matrix.DEBUG_ENV}
    env.update(matrix.debug_env(entry))
    return matrix.inputs(cell_def, env=env)


def render_reliability(rel: dict) -> List[str]:
    lines = ['## Reliability: repeated boots and debug cells', '']
    rep = rel.get('repeat') or {}
    if rep:
        lines += ['Repeats (scripts/repeat.sh): each cell booted again without a build; '
                  'a case is flaky when a run\'s result differs from the first run\'s '
                  'of the same variant (cpusN: QEMU -smp N; -loaded: one busy loop per '
                  'host CPU).', '',
                  '| cell | status | step | runs | variants (runs, s a run) | flaky cases '
                  '| failed-run problems | command |', '|---|---|---|---|---|---|---|---|']
        for c, e in rep.items():
            t = e.get('totals', {})
            var = ', '.join(f'{v} ({x["runs"]}, {"-".join(map(str, dict.fromkeys(x["seconds"])))})'
                            for v, x in e.get('variants', {}).items())
            lines.append(f'| {c} | {e["status"].upper()} | {e.get("step", "")} | '
                         f'{t.get("runs", 0)} | {var} | {t.get("flaky_cases", 0)} | '
                         f'{t.get("failed", 0)} | `{e["command"]}` |')
        for c, e in rep.items():
            lines += [f'- {c}: flaky in {v}: {case} ({n} run(s))'
                      for v, cases in e.get('flaky', {}).items() for case, n in sorted(cases.items())]
            lines += [f'- {c}: {p}' for p in e.get('failed', [])]
            lines += [f'- {c}: {v} differs from the cell as it is (not a flake): {x}'
                      for v, d in e.get('cross', {}).items() for x in d]
            lines += [f'- {c}: stale: {w}' for w in e.get('why', [])]
        lines.append('')
    else:
        lines += ['No repeats (scripts/repeat.sh).', '']
    dbg = rel.get('debug') or {}
    lines += ['Debug cells (scripts/debug-cells.sh: KASAN, UBSAN, debug objects, kmemleak; '
              'results must equal the plain cell\'s at each step):', '',
              '| debug cell | cell | status | what | report | command |',
              '|---|---|---|---|---|---|']
    for n, e in dbg.items():
        what = e['line'] or '-'
        if e.get('selfcheck'):
            what += f'; {e["selfcheck"].split(" ", 1)[1]}'
        lines.append(f'| {n} | {e["cell"]} | {e["status"].upper()} | {what} | '
                     f'{e.get("report", "-")} | `{e["command"]}` |')
    for n, e in dbg.items():
        lines += [f'- {n}: {p}' for p in e.get('problems', [])]
        lines += [f'- {n}: noted, not counted: {x}' for x in e.get('notes', [])]
        lines += [f'- {n}: stale: {w}' for w in e.get('why', [])]
    lines.append('')
    return lines


def cell_dict(cell: Cell) -> dict:
    return {
        'status': cell.status, 'judged': not cell.status, 'left': cell.status == LEFT,
        'red': not cell.ok and cell.status != LEFT,
        'counts': cell.counts, 'problems': cell.problems, 'failures': cell.failures,
        'notes': cell.notes,
        'build_seconds': cell.meta.get('build_seconds', '?'),
        'run_seconds': cell.meta.get('run_seconds', '?'),
        'results': {p: list(r) for p, r in sorted(cell.results.items())},
    }


def judge(args, cells_def: List[dict], builds: Optional[List[str]] = None,
          inputs: Optional[Callable[[str, str], Dict[str, str]]] = None,
          plan: Optional[dict] = None) -> dict:
    """Everything the reports say, as one JSON-able structure.

    inputs(kind, name) gives the current inputs of a cell ('cells') or
    build ('builds'); plan ({"cells": {cell: [steps]}, "builds": {...},
    "left": why}) names what this run was meant to do: a step a cell was not
    planned for is left to the main job, not missing.
    """
    parser = load_parser(args.tree) if cells_def else None
    all_steps = steps_mod.read_steps(args.steps_file)
    sha_of = dict(all_steps)
    steps = args.steps.split(',') if args.steps else [s for s, _ in all_steps]
    unknown = [s for s in steps if s not in sha_of]
    if unknown:
        raise ReportError(f'unknown step(s): {", ".join(unknown)}')
    cells = [c['name'] for c in cells_def]
    by_name = {c['name']: c for c in cells_def}
    builds = builds or []
    series = steps_mod.series_digests(args.series_dir)
    if not cells and not builds:
        raise ReportError('no cell and no build-only configuration to judge')
    if len(all_steps) != len(series) + 1:
        raise ReportError(f'{args.steps_file} has {len(all_steps)} steps for '
                          f'{len(series)} patches in {args.series_dir}: '
                          'run scripts/prepare-tree.sh')

    def planned(kind: str, step: str, name: str) -> bool:
        if not plan:
            return True
        also = plan.get('sched_only', {}) if kind == 'builds' else {}
        return step in plan.get(kind, {}).get(name, []) + also.get(name, [])

    same_as = getattr(args, 'same_as', '') or ''
    current = {c: inputs('cells', c) if inputs else None for c in cells}
    # The plain cells' inputs: the current ones without a debug run's.
    plain_env = {k: v for k, v in os.environ.items() if k not in matrix.DEBUG_ENV}
    plain_inputs = {c: matrix.inputs(by_name[c], env=plain_env) if inputs and same_as
                    else None for c in cells}
    grid: Dict[Tuple[str, str], Cell] = {}
    for step in dict.fromkeys([BASELINE] + steps):
        for c in cells:
            cell = load_cell(parser, args.results, step, c, sha_of[step],
                             by_name[c], current[c])
            # Whatever an earlier run left where this one had no plan to
            # run is not this run's problem.
            if cell.status in (NOT_RUN, INCOMPLETE, STALE) and not planned('cells', step, c):
                cell = Cell(step, c, status=LEFT)
            grid[step, c] = cell

    data = {
        'schema': 2,
        'kernel': args.kernel_version, 'package': args.package,
        'package_version': args.package_version,
        'tested_version': getattr(args, 'tested_version', '') or '',
        'series_dir': args.series_dir,
        'series': [{'name': n, 'sha256': d} for n, d in series],
        'steps': [{'name': s, 'sha': sha_of[s]} for s in steps],
        'cells': cells, 'builds': builds,
        'plan': plan, 'grid': {}, 'build_grid': {},
        'problems': [], 'differences': [], 'warnings': [], 'notes': [],
    }
    warning = package_warning(data['package_version'], data['tested_version'])
    if warning:
        data['warnings'].append(warning)
    problems, diffs = data['problems'], data['differences']
    for step in steps:
        row = data['grid'].setdefault(step, {})
        for c in cells:
            cell, base = grid[step, c], grid[BASELINE, c]
            entry = cell_dict(cell)
            entry['differences'] = []
            if not cell.status:
                if step == BASELINE:
                    entry['status'] = BASE
                elif same_as and base.status:
                    # A debug cell run without its own baseline: the plain
                    # cell at the same step is the reference (below).
                    entry['status'] = SAME
                else:
                    d = differences(base.results, cell.results)
                    entry['differences'] = d
                    entry['status'] = SAME if base.ok and not d else \
                        DIFFERS if d else BASE_RED
                    if entry['status'] != SAME:
                        entry['red'] = True
                    diffs.extend(f'{step} {c}: {x}' for x in d)
            problems.extend(f'{step} {c}: {p}' for p in cell.problems)
            problems.extend(f'{step} {c}: {p}' for p in cell.failures)
            data['notes'].extend(f'{step} {c}: {n}' for n in cell.notes)
            if same_as and entry['judged']:
                entry['plain'] = same_as_plain(parser, same_as, step, by_name[c], sha_of[step],
                                               cell.results, plain_inputs[c])
                if entry['plain']:
                    entry['red'] = True
                    if entry['status'] == SAME:
                        entry['status'] = DIFFERS
                problems.extend(f'{step} {c}: {p}' for p in entry['plain'])
            row[c] = entry

    if builds:
        bgrid, probs = judge_builds(
            args.results, steps, sha_of, builds,
            (lambda b: inputs('builds', b)) if inputs else None,
            lambda s, b: planned('builds', s, b))
        data['build_grid'] = {s: bgrid[s] for s in steps}
        problems.extend(probs)
    last = steps[-1]
    limit = getattr(args, 'size_limit', None)
    data['size'] = None
    data['code'] = None
    if last != BASELINE and limit is not None:
        rows, probs = judge_sizes(args.results, BASELINE, last,
                                  [c for c in cells if planned('cells', BASELINE, c) and
                                   planned('cells', last, c)], limit)
        data['size'] = {'base': BASELINE, 'last': last, 'limit': limit, 'rows': rows}
        problems.extend(f'size: {p}' for p in probs)
        data['code'] = judge_code(args.tree, [(s, sha_of[s]) for s in
                                              dict.fromkeys([BASELINE] + steps)])
    tiny = [t for t in getattr(args, 'tiny', '').split(',') if t]
    data['tiny'] = judge_tiny(args.results, [(s, sha_of[s]) for s in steps], tiny,
                              plan.get('tiny', {}) if plan else None,
                              (lambda c: inputs('tiny', c)) if inputs else None) \
        if tiny else None
    needs = sorted({c['needs'] for c in matrix.load().get('tiny', []) if c['name'] in tiny})
    data['tiny_absent'] = {n: absent_suites(n) for n in needs}
    for c, row in (data['tiny'] or {}).items():
        for step, e in row.items():
            if e['status'] in ('red', 'incomplete', 'stale', 'not run'):
                problems.append(f'{step} {c}: {e["status"]}: {e["line"] or "no verdict"}')
    expect = set(filter(None, getattr(args, 'expect', '').split(',')))
    data['upstream'] = judge_upstream(args.results, getattr(args, 'upstream_sha', None))
    if data['upstream'] and data['upstream']['status'] in ('red', 'incomplete'):
        problems.append(f'upstream-kunit: {data["upstream"]["status"]}: '
                        f'{data["upstream"]["line"] or "no summary"}')
    elif 'upstream' in expect and (not data['upstream'] or
                                   data['upstream']['status'] != 'green'):
        # This run ran them: a missing or stale result means they did not.
        problems.append('upstream-kunit: not run on the current commit: '
                        'scripts/upstream-kunit.sh wrote no result of its own')
    data['peer'] = judge_peer(args.results, [(s, sha_of[s]) for s in steps],
                              matrix.peer_inputs() if inputs else None)
    for step, e in data['peer'].items():
        if e['status'] in ('red', 'harness', 'incomplete'):
            problems.append(f'{step} peer: {e["status"]}: {e["line"] or "no verdict"}')
    if 'peer' in expect:
        for step in dict.fromkeys([BASELINE, steps[-1]]):
            if data['peer'].get(step, {}).get('status') in (None, 'stale'):
                problems.append(f'{step} peer: not run: scripts/peer-check.sh wrote no '
                                f'verdict for this step')
    # A debug run's own report has no reliability section (no --debug-root).
    data['reliability'] = judge_reliability(args, sha_of) \
        if getattr(args, 'debug_root', '') else None
    problems.extend((data['reliability'] or {}).get('problems', []))
    data['skips'] = [f'{c}: {p}: {r}' for c in cells
                     for p, (s, r) in sorted(grid[BASELINE, c].results.items()) if s == SKIP]
    red = any(e['red'] for row in data['grid'].values() for e in row.values())
    data['verdict'] = 'RED' if red or problems else 'GREEN'
    # Counted over the results this run judged (not stale ones).
    data['totals'] = {k: sum(grid[s, c].counts.get(k, 0) for s in steps for c in cells
                             if data['grid'][s][c]['judged'])
                      for k in (PASS, SKIP, FAIL, CRASH)}
    data['left'] = [f'{s} {c}' for s in steps for c in cells
                    if data['grid'][s][c]['status'] == LEFT] + \
        [f'{s} {b}' for s in steps for b in builds
         if data['build_grid'][s][b]['status'] == LEFT] + \
        [f'{s} {t}' for t, row in (data['tiny'] or {}).items() for s in steps
         if row[s]['status'] == LEFT]
    return data


def cell_text(entry: dict) -> str:
    """One cell of the results table."""
    status = entry['status']
    if status in (NOT_RUN, BUILD_FAILED, INCOMPLETE, STALE):
        return f'**{status.upper()}**'
    if status == LEFT:
        return 'left to the main job'
    n = entry['counts']
    text = (f'{n[PASS]}/{n[SKIP]}/{n[FAIL]}/{n[CRASH]} '
            f'({entry["build_seconds"]}+{entry["run_seconds"]} s)')
    text += {SAME: ' same', DIFFERS: ' **DIFFERS**', BASE_RED: ' (baseline not green)',
             BASE: ''}[status]
    if entry['problems'] or entry['failures']:
        text = f'**RED** {text}'
    return text


def render_markdown(data: dict) -> str:
    """report.md, from judge()'s data alone."""
    cells, steps = data['cells'], [s['name'] for s in data['steps']]
    lines = ['# sched-tinify KUnit matrix report', '']
    lines.extend(f'**WARNING: {w}**' for w in data['warnings'])
    if data['warnings']:
        lines.append('')
    lines.append(f'- Kernel: {data["kernel"]} '
                 f'(Debian package {data["package"]} {data["package_version"]})')
    lines.append(f'- Cells: {", ".join(cells)}')
    lines.append(f'- Steps: {", ".join(steps)}')
    lines.append(f'- Series: {len(data["series"])} patch(es) in {data["series_dir"]}')
    for p in data['series']:
        lines.append(f'  - `{p["name"]}` sha256 `{p["sha256"]}`')
    if data['left']:
        plan = data['plan'] or {}
        why = '; '.join(f'{n} ({plan["why"][n]})' if n in plan.get('why', {}) else n
                        for n in plan.get('left', []))
        lines.append(f'- Left to the main job (scripts/matrix.sh): {len(data["left"])} '
                     f'cell step(s){": " + why if why else ""}')
    lines += ['', '## Results', '']
    if cells:
        lines += ['Each cell: passed/skipped/failed/crashed test cases and '
                  'parameters, then build + run seconds. "same" means the '
                  'normalized results equal the baseline\'s in that cell.', '',
                  '| step | commit | ' + ' | '.join(cells) + ' |',
                  '|---|---|' + '---|' * len(cells)]
        for s in data['steps']:
            row = data['grid'][s['name']]
            lines.append(f'| {s["name"]} | `{s["sha"][:12]}` | ' +
                         ' | '.join(cell_text(row[c]) for c in cells) + ' |')
    else:
        lines.append('No cell in this run (build-only configurations alone).')
    lines += ['', '## Failures and problems', '']
    lines += [f'- {p}' for p in data['problems']] or ['None.']
    if data.get('notes'):
        lines += ['', 'Noted, not counted:', '']
        lines += [f'- {n}' for n in data['notes']]
    lines += ['', '## Differences from the baseline', '']
    lines += [f'- {d}' for d in data['differences']] or ['None.']
    lines.append('')
    if data['left']:
        lines += ['## Left to the main job', '']
        lines += [f'- {x}' for x in data['left']]
        lines.append('')
    if data['builds']:
        lines += render_builds(data['build_grid'], steps, data['builds'])
    if data['size']:
        z = data['size']
        lines += render_sizes(z['base'], z['last'], z['rows'], z['limit'])
    if data['code']:
        lines += render_code(data['code'])
    if data.get('tiny'):
        lines += render_tiny(data['tiny'], steps, data.get('tiny_absent'))
    up = data.get('upstream')
    lines += ['## Upstream-form tests (patches/kunit/)', '']
    if not up:
        lines.append('Not run (scripts/upstream-kunit.sh).')
    elif up['status'] == 'stale':
        lines.append(f'Not run on the current commit: the last run was on `{up["sha"][:12]}`.')
    else:
        lines.append(f'{up["status"].upper()}: {up["line"] or "no summary"}')
    lines.append('')
    lines += ['## Peer check (scripts/peer-check.sh: the requests of chrt in a tiny arm kernel)', '']
    peer = data.get('peer') or {}
    lines += [f'- {s}: {e["status"].upper()}: {e["line"] or "no verdict"}'
              if e['status'] != 'stale' else f'- {s}: not run on the current commit'
              for s, e in peer.items()] or ['Not run (the main job runs it at the baseline '
                                            'and the last step).']
    lines.append('')
    if data.get('reliability'):
        lines += render_reliability(data['reliability'])
    lines += ['## Skipped, with reasons (baseline)', '']
    lines += [f'- {s}' for s in data['skips']] or ['None.']
    lines += ['', f'## Verdict: {data["verdict"]}', '', results_mod.kunit_line(data)]
    return '\n'.join(lines)


def progress(args, cells_def: List[dict], builds_def: List[dict], step: str,
             name: str) -> str:
    """One line on what a cell (or build) did at a step, for matrix.sh,
    from judge() on that step alone."""
    sub = argparse.Namespace(**vars(args))
    sub.steps, sub.size_limit = step, None
    if any(b['name'] == name for b in builds_def):
        data = judge(sub, [], [name])
        e = data['build_grid'][step][name]
        text = e['text'].replace('**', '')
        if e['status'] == 'built':
            text = text.replace('built,', f'built in {e["build_seconds"]} s,')
        return text
    data = judge(sub, matrix.select({'cells': cells_def}, name))
    write_results_txt(args.results, data)
    e = data['grid'][step][name]
    if not e['judged']:
        return e['status'].upper() + (f' ({e["problems"][-1]})' if e['problems'] else '')
    n = e['counts']
    text = (f'build {e["build_seconds"]} s, run {e["run_seconds"]} s, {n[PASS]} passed, '
            f'{n[SKIP]} skipped, {n[FAIL] + n[CRASH]} failed')
    text += {BASE: '', SAME: ', same', DIFFERS: f', DIFFERS ({len(e["differences"])})',
             BASE_RED: ', baseline not green'}[e['status']]
    if e['problems'] or e['failures']:
        text += f', RED ({(e["problems"] + e["failures"])[0]})'
    return text


def fresh(args, data: dict, step: str, name: str) -> bool:
    """Is the result of a cell (or build) at a step worth keeping: complete,
    at the step's commit, made with the current inputs, and green as far
    as its run could tell (built, booted, every test passed, no harness
    failure)? A red result is always run again."""
    sha_of = dict(steps_mod.read_steps(args.steps_file))
    kind = 'builds' if any(b['name'] == name for b in data.get('builds', [])) else 'cells'
    entry = matrix.select(data, name, kind)[0]
    try:
        meta = read_meta(os.path.join(args.results, step, name, 'meta'))
    except OSError:
        return False
    status, _ = check_meta(meta, sha_of.get(step), matrix.inputs(entry, kind))
    green = {'build_rc': '0'} if kind == 'builds' else \
        {'build_rc': '0', 'exec_rc': '0', 'timed_out': 'n'}
    if not (status == '' and step in sha_of and 'harness_failed' not in meta and
            all(meta.get(k) == v for k, v in green.items())):
        return False
    if kind == 'builds':
        return True
    # What the report would hold against it: a kernel splat, a kunit.json
    # that disagrees with the log, a failed case.
    cell = load_cell(load_parser(args.tree), args.results, step, name, sha_of[step], entry,
                     matrix.inputs(entry, kind))
    return not cell.problems and not cell.failures


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--tree', required=True, help='kernel tree (its kunit_parser)')
    ap.add_argument('--results', required=True, help='results folder of the package')
    ap.add_argument('--steps-file', required=True)
    ap.add_argument('--series-dir', required=True)
    ap.add_argument('--package', required=True)
    ap.add_argument('--package-version', required=True)
    ap.add_argument('--tested-version', default='',
                    help='the package version the series is tested on (warned about '
                         'when the installed one differs)')
    ap.add_argument('--kernel-version', required=True)
    ap.add_argument('--upstream-sha', default='',
                    help='commit of the upstream-form patches (prepare-tree.sh)')
    ap.add_argument('--expect', default='', metavar='peer,upstream',
                    help='checks this run ran: a missing or stale result of one is a problem')
    ap.add_argument('--cells', default='', help='comma-separated, or "none"; default all')
    ap.add_argument('--steps', default='', help='comma-separated; default all')
    ap.add_argument('--builds', default='',
                    help='build-only configurations, comma-separated; default none')
    ap.add_argument('--tiny', default='',
                    help='tiny cells (scripts/tiny-cells.sh) to judge at every step, '
                         'comma-separated; default none')
    ap.add_argument('--size-limit', type=float, default=None, metavar='PCT',
                    help='add the size and code sections; a problem if a text '
                         'grows by more than PCT%% from the baseline to the last step')
    ap.add_argument('--plan', default='', metavar='JSON',
                    help='what the run was meant to do (see judge()); the rest is '
                         'left to the main job')
    ap.add_argument('--same-as', default='', metavar='DIR',
                    help='results folder of the plain cells: a judged cell whose results '
                         'differ from the plain cell\'s at the same step is red (debug cells)')
    ap.add_argument('--repeat-cells', default='',
                    help='cells this run repeated (scripts/repeat.sh): red unless green')
    ap.add_argument('--debug-cells', default='',
                    help='debug cells this run ran (scripts/debug-cells.sh): red unless green')
    ap.add_argument('--debug-root', default='',
                    help='folder of the debug cells\' results (RESULTS/debug)')
    ap.add_argument('--no-inputs', action='store_true',
                    help='do not compare the recorded inputs with the current ones')
    ap.add_argument('--progress', default='', metavar='STEP,NAME',
                    help='print one line on a cell or build at a step, and exit 0')
    ap.add_argument('--fresh', default='', metavar='STEP,NAME',
                    help='exit 0 if the result of a cell or build at a step is complete, '
                         'at the step\'s commit and made with the current inputs, else 1')
    ap.add_argument('--out', help='Markdown report to write; report.json and '
                                  'junit/<cell>.xml go beside it')
    args = ap.parse_args(argv)

    try:
        data = matrix.load()
        if args.fresh:
            step, _, name = args.fresh.partition(',')
            return 0 if fresh(args, data, step, name) else 1
        if args.progress:
            step, _, name = args.progress.partition(',')
            print(progress(args, data['cells'], data.get('builds', []), step, name))
            return 0
        if not args.out:
            raise ReportError('--out is required')
        cells_def = [] if args.cells == 'none' else matrix.select(data, args.cells)
        builds_def = matrix.select(data, args.builds, 'builds') if args.builds else []
        kinds = {'cells': {c['name']: c for c in cells_def},
                 'tiny': {t['name']: t for t in data.get('tiny', [])},
                 'builds': {b['name']: b for b in builds_def}}
        inputs = None if args.no_inputs else \
            (lambda kind, name: matrix.inputs(kinds[kind][name],
                                              'cells' if kind == 'tiny' else kind))
        plan = None
        if args.plan:
            with open(args.plan, encoding='utf-8') as f:
                plan = json.load(f)
        result = judge(args, cells_def, [b['name'] for b in builds_def], inputs, plan)
        text = render_markdown(result)
        write_results_txt(args.results, result)
        out_dir = os.path.dirname(os.path.abspath(args.out))
        with open(os.path.join(out_dir, 'report.json'), 'w', encoding='utf-8') as f:
            json.dump(result, f, indent=1, sort_keys=True)
            f.write('\n')
        results_mod.write_junit(result, os.path.join(out_dir, 'junit'))
        with open(args.out, 'w', encoding='utf-8') as f:
            f.write(text + '\n')
    except (ReportError, matrix.MatrixError, steps_mod.StepsError, OSError,
            ValueError, subprocess.CalledProcessError) as e:
        print(f'report.py: error: {e}', file=sys.stderr)
        return 2
    except Exception:  # pylint: disable=broad-except
        # Never let a crash of the tool read as a red (or green) run.
        traceback.print_exc()
        return 2
    print(text)
    return 0 if result['verdict'] == 'GREEN' else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
