#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the reviewer report of a matrix run and judge it.

Reads, for every step and cell, what scripts/run-cell.sh kept (test.log,
kunit.json, meta), parses the raw KTAP with the kernel tree's own parser
(tools/testing/kunit/kunit_parser.py), normalizes it to
"suite.case[.parameter] -> status [reason]" and compares every step with
the baseline step of the same cell.

It also reports what scripts/build-only.sh kept for the build-only
configurations (W=1 warnings in kernel/sched/, compared with the
baseline's), the sizes run-cell.sh kept (text of vmlinux and of
kernel/sched/built-in.a, baseline against the last step), and the lines of
kernel/sched/core.c and the diffstat of the series, read from the tree.

Exit status: 0 when every requested step and cell ran, nothing failed or
crashed, every step is identical to the baseline in every cell, every
requested build-only configuration built without a W=1 warning the
baseline does not have, and (with --size-limit) no text grew by more than
the limit; 1 otherwise; 2 on a usage or input error.
"""

import argparse
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import traceback
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

BASELINE = '00-baseline'

# Normalized statuses.
PASS, SKIP, FAIL, CRASH = 'PASS', 'SKIP', 'FAIL', 'CRASH'

# Kernel reports that make a run red even when every test passed: WARN_ON,
# BUG, lockdep, sleeping in atomic context, RCU misuse, sanitizers.
SPLAT = re.compile(r'\b(WARNING|BUG|INFO): |kernel BUG at |Oops|Kernel panic|'
                   r'Internal error: |Unable to handle kernel |general protection fault|'
                   r'possible (circular|recursive) locking|inconsistent lock state|'
                   r'suspicious RCU usage|sleeping function called from invalid context|'
                   r'UBSAN: |KASAN: ')


class ReportError(Exception):
    """Bad input: the report cannot be made."""


def load_parser(tree: str):
    """Import kunit_parser from the kernel tree, quiet, keeping skip reasons.

    The tree's parser drops the text after "# SKIP"; wrap its result-line
    function so that every Test it fills in also gets .skip_reason.
    """
    path = os.path.join(tree, 'tools', 'testing', 'kunit')
    if not os.path.isfile(os.path.join(path, 'kunit_parser.py')):
        raise ReportError(f'no kunit_parser.py under {path}')
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
    meta: Dict[str, str] = field(default_factory=dict)
    results: Dict[str, Tuple[str, str]] = field(default_factory=dict)
    counts: Dict[str, int] = field(default_factory=dict)
    problems: List[str] = field(default_factory=list)
    failures: List[str] = field(default_factory=list)

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


def load_cell(parser, results_dir: str, step: str, cell_name: str,
              sha: Optional[str], cell_def: Optional[dict] = None) -> Cell:
    cell = Cell(step, cell_name)
    d = os.path.join(results_dir, step, cell_name)
    meta_path = os.path.join(d, 'meta')
    if not os.path.isfile(meta_path):
        cell.problems.append('not run')
        return cell
    cell.meta = read_meta(meta_path)
    if sha and cell.meta.get('sha') != sha:
        cell.problems.append(f'stale: ran {cell.meta.get("sha", "?")[:12]}, step is {sha[:12]}')
    if cell.meta.get('build_rc', '0') != '0':
        cell.problems.append('build failed')
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
    with open(os.path.join(d, 'results.txt'), 'w', encoding='utf-8') as f:
        for path, (status, reason) in sorted(cell.results.items()):
            f.write(f'{path}\t{status}\t{reason}\n'.replace('\t\n', '\n'))
    return cell


def differences(base: Dict[str, Tuple[str, str]],
                other: Dict[str, Tuple[str, str]]) -> List[str]:
    """Every way two normalized results differ, one line each."""
    out = []
    for path in sorted(set(base) | set(other)):
        a, b = base.get(path), other.get(path)
        if a == b:
            continue
        if b is None:
            out.append(f'missing: {path} (baseline {fmt(a)})')
        elif a is None:
            out.append(f'new: {path} {fmt(b)}')
        else:
            out.append(f'changed: {path}: {fmt(a)} -> {fmt(b)}')
    return out


def fmt(result: Tuple[str, str]) -> str:
    status, reason = result
    return f'{status} ({reason})' if reason else status


def sha256(path: str) -> str:
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_steps(path: str) -> List[Tuple[str, str]]:
    steps = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.strip():
                name, sha = line.split()
                steps.append((name, sha))
    if not steps or steps[0][0] != BASELINE:
        raise ReportError(f'{path}: the first step must be {BASELINE}')
    return steps


def read_series(series_dir: str) -> List[Tuple[str, str]]:
    series = os.path.join(series_dir, 'series')
    out = []
    with open(series, encoding='utf-8') as f:
        for line in f:
            name = line.split('#', 1)[0].strip()
            if name:
                out.append((name, sha256(os.path.join(series_dir, name))))
    return out


def read_size(path: str) -> Dict[str, List[int]]:
    """The size file of run-cell.sh: object -> [text, data, bss, dec]."""
    sizes = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            parts = line.split()
            if len(parts) == 5:
                sizes[parts[0]] = [int(x) for x in parts[1:]]
    return sizes


def size_section(results: str, base: str, last: str, cells: List[str],
                 limit: float) -> Tuple[List[str], List[str]]:
    """Lines of the size table, and problems (text growth over limit %)."""
    lines = [f'## Size: {base} -> {last}', '',
             'text, data, bss of each object (bytes), with the change of text.', '',
             '| cell | object | text | data | bss | text change |',
             '|---|---|---|---|---|---|']
    problems = []
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
            cols = [f'{o[i]} -> {n[i]}' if o[i] != n[i] else str(o[i]) for i in range(3)]
            mark = ''
            if pct > limit:
                mark = f' **over {limit}%**'
                problems.append(f'{c}: text of {obj} grows by {delta} bytes '
                                f'({pct:+.3f}%), over the {limit}% limit')
            lines.append(f'| {c} | {obj} | ' + ' | '.join(cols) +
                         f' | {delta:+d} ({pct:+.3f}%){mark} |')
    lines.append('')
    return lines, problems


def git(tree: str, *argv: str) -> str:
    return subprocess.run(['git', '-C', tree, *argv], check=True,
                          capture_output=True, text=True).stdout


def code_section(tree: str, steps: List[Tuple[str, str]]) -> List[str]:
    """Lines of core.c per step and the diffstat of the whole series."""
    lines = ['## Code: kernel/sched/core.c per step, and the series diffstat', '',
             '| step | core.c lines |', '|---|---|']
    for name, sha in steps:
        n = git(tree, 'show', f'{sha}:kernel/sched/core.c').count('\n')
        lines.append(f'| {name} | {n} |')
    lines += ['', '```', git(tree, 'diff', '--stat=72', '--diff-algorithm=minimal',
                             steps[0][1], steps[-1][1]).rstrip(), '```', '']
    return lines


def build_only_section(results: str, steps: List[str], sha_of: Dict[str, str],
                       builds: List[str]) -> Tuple[List[str], List[str]]:
    """Table of the build-only configurations, and their problems."""
    lines = ['## Build-only configurations (W=1)', '',
             'Each: whether it built, and its W=1 warnings in kernel/sched/. '
             'A warning the baseline does not have is a problem.', '',
             '| step | ' + ' | '.join(builds) + ' |',
             '|---|' + '---|' * len(builds)]
    problems = []
    base_warnings: Dict[str, Optional[set]] = {}
    for step in dict.fromkeys([BASELINE] + steps):
        row = [step]
        for b in builds:
            d = os.path.join(results, step, b)
            try:
                meta = read_meta(os.path.join(d, 'meta'))
            except OSError:
                meta = {}
            if not meta:
                text = 'NOT RUN'
                problems.append(f'{step} {b}: not run')
            elif meta.get('sha') != sha_of[step]:
                text = 'STALE'
                problems.append(f'{step} {b}: stale: built {meta.get("sha", "?")[:12]}')
            elif meta.get('build_rc') != '0':
                text = 'BUILD FAILED'
                problems.append(f'{step} {b}: build failed (see {d}/build.log)')
            else:
                with open(os.path.join(d, 'warnings'), encoding='utf-8') as f:
                    warnings = {w.strip() for w in f if w.strip()}
                text = f'built, {len(warnings)} warning(s)'
                if step == BASELINE:
                    base_warnings[b] = warnings
                elif base_warnings.get(b) is not None:
                    new = sorted(warnings - base_warnings[b])
                    text += f', **{len(new)} NEW**' if new else ', none new'
                    problems.extend(f'{step} {b}: new W=1 warning: {w}' for w in new)
                else:
                    text += ' (no baseline to compare)'
                    problems.append(f'{step} {b}: no baseline build to compare with')
            if step == BASELINE and b not in base_warnings:
                base_warnings[b] = None
            row.append(text)
        if step in steps:
            lines.append('| ' + ' | '.join(row) + ' |')
    lines.append('')
    return lines, problems


def build_report(args, cells_def: List[dict],
                 builds: Optional[List[str]] = None) -> Tuple[str, bool]:
    parser = load_parser(args.tree)
    all_steps = read_steps(args.steps_file)
    sha_of = dict(all_steps)
    steps = args.steps.split(',') if args.steps else [s for s, _ in all_steps]
    unknown = [s for s in steps if s not in sha_of]
    if unknown:
        raise ReportError(f'unknown step(s): {", ".join(unknown)}')
    cells = [c['name'] for c in cells_def]
    by_name = {c['name']: c for c in cells_def}
    series = read_series(args.series_dir)
    if len(all_steps) != len(series) + 1:
        raise ReportError(f'{args.steps_file} has {len(all_steps)} steps for '
                          f'{len(series)} patches in {args.series_dir}: '
                          'run scripts/prepare-tree.sh')

    grid: Dict[Tuple[str, str], Cell] = {}
    for step in dict.fromkeys([BASELINE] + steps):
        for c in cells:
            grid[step, c] = load_cell(parser, args.results, step, c,
                                      sha_of[step], by_name[c])

    lines = ['# sched-tinify KUnit matrix report', '']
    lines.append(f'- Kernel: {args.kernel_version} '
                 f'(Debian package {args.package} {args.package_version})')
    lines.append(f'- Cells: {", ".join(cells)}')
    lines.append(f'- Steps: {", ".join(steps)}')
    lines.append(f'- Series: {len(series)} patch(es) in {args.series_dir}')
    for name, digest in series:
        lines.append(f'  - `{name}` sha256 `{digest}`')
    lines.append('')

    lines.append('## Results')
    lines.append('')
    lines.append('Each cell: passed/skipped/failed/crashed test cases and '
                 'parameters, then build + run seconds. "same" means the '
                 'normalized results equal the baseline\'s in that cell.')
    lines.append('')
    lines.append('| step | commit | ' + ' | '.join(cells) + ' |')
    lines.append('|---|---|' + '---|' * len(cells))
    green = True
    diffs: List[str] = []
    problems: List[str] = []
    for step in steps:
        row = [step, f'`{sha_of[step][:12]}`']
        for c in cells:
            cell = grid[step, c]
            base = grid[BASELINE, c]
            if 'not run' in cell.problems or 'build failed' in cell.problems:
                row.append(cell.problems[-1].upper())
                green = False
                problems.append(f'{step} {c}: {cell.problems[-1]}')
                continue
            n = cell.counts
            text = (f'{n[PASS]}/{n[SKIP]}/{n[FAIL]}/{n[CRASH]} '
                    f'({cell.meta.get("build_seconds", "?")}+'
                    f'{cell.meta.get("run_seconds", "?")} s)')
            if step != BASELINE:
                d = differences(base.results, cell.results)
                if base.ok and not d:
                    text += ' same'
                else:
                    text += ' **DIFFERS**' if d else ' (baseline not green)'
                    green = False
                diffs.extend(f'{step} {c}: {x}' for x in d)
            if not cell.ok:
                green = False
                text = f'**RED** {text}'
            problems.extend(f'{step} {c}: {p}' for p in cell.problems)
            problems.extend(f'{step} {c}: {p}' for p in cell.failures)
            row.append(text)
        lines.append('| ' + ' | '.join(row) + ' |')
    lines.append('')

    extra: List[str] = []
    if builds:
        more, probs = build_only_section(args.results, steps, sha_of, builds)
        extra += more
        problems.extend(probs)
    last = steps[-1]
    limit = getattr(args, 'size_limit', None)
    if last != BASELINE and limit is not None:
        more, probs = size_section(args.results, BASELINE, last, cells, limit)
        extra += more
        problems.extend(f'size: {p}' for p in probs)
        extra += code_section(args.tree, [(s, sha_of[s]) for s in
                                          dict.fromkeys([BASELINE] + steps)])
    if problems:
        green = False

    lines.append('## Failures and problems')
    lines.append('')
    lines.extend(f'- {p}' for p in problems) if problems else lines.append('None.')
    lines.append('')
    lines.append('## Differences from the baseline')
    lines.append('')
    lines.extend(f'- {d}' for d in diffs) if diffs else lines.append('None.')
    lines.append('')

    lines.extend(extra)
    lines.append('## Skipped, with reasons (baseline)')
    lines.append('')
    skips = [f'{c}: {p}: {r}' for c in cells
             for p, (s, r) in sorted(grid[BASELINE, c].results.items()) if s == SKIP]
    lines.extend(f'- {s}' for s in skips) if skips else lines.append('None.')
    lines.append('')
    lines.append(f'## Verdict: {"GREEN" if green else "RED"}')
    lines.append('')
    totals = {k: sum(grid[s, c].counts.get(k, 0) for s in steps for c in cells)
              for k in (PASS, SKIP, FAIL, CRASH)}
    lines.append(f'kunit: {totals[PASS]} passed, {totals[FAIL] + totals[CRASH]} failed, '
                 f'{totals[SKIP]} skipped')
    return '\n'.join(lines), green


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--tree', required=True, help='kernel tree (its kunit_parser)')
    ap.add_argument('--results', required=True, help='results folder of the package')
    ap.add_argument('--steps-file', required=True)
    ap.add_argument('--series-dir', required=True)
    ap.add_argument('--package', required=True)
    ap.add_argument('--package-version', required=True)
    ap.add_argument('--kernel-version', required=True)
    ap.add_argument('--cells', default='', help='comma-separated; default all')
    ap.add_argument('--steps', default='', help='comma-separated; default all')
    ap.add_argument('--builds', default='',
                    help='build-only configurations, comma-separated; default none')
    ap.add_argument('--size-limit', type=float, default=None, metavar='PCT',
                    help='add the size and code sections; a problem if a text '
                         'grows by more than PCT%% from the baseline to the last step')
    ap.add_argument('--out', required=True, help='Markdown report to write')
    args = ap.parse_args(argv)

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import matrix  # pylint: disable=import-outside-toplevel
    try:
        data = matrix.load()
        cells_def = matrix.select(data, args.cells)
        builds = [b['name'] for b in matrix.select(data, args.builds, 'builds')] \
            if args.builds else []
        text, green = build_report(args, cells_def, builds)
    except (ReportError, matrix.MatrixError, OSError,
            subprocess.CalledProcessError) as e:
        print(f'report.py: error: {e}', file=sys.stderr)
        return 2
    except Exception:  # pylint: disable=broad-except
        # Never let a crash of the tool read as a red (or green) run.
        traceback.print_exc()
        return 2
    with open(args.out, 'w', encoding='utf-8') as f:
        f.write(text + '\n')
    print(text)
    return 0 if green else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
