# SPDX-License-Identifier: GPL-2.0
"""What a console log or a build log says: KUnit results (parsed by the
kernel tree's own kunit_parser), kernel splats, kmemleak reports, the CPUs
brought up, W=1 warnings; and kunit.py's own JSON, to cross-check."""

import importlib
import io
import json
import os
import re
import sys
from typing import Dict, Iterable, List, Optional, Tuple

from . import config

# Normalized statuses of a test.
PASS, SKIP, FAIL, CRASH = 'PASS', 'SKIP', 'FAIL', 'CRASH'
Results = Dict[str, Tuple[str, str]]

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

BROUGHT_UP = re.compile(r'smp: Brought up \d+ nodes?, (\d+) CPUs?')
WARNING = re.compile(r'([^ :]+):\d+(?::\d+)?: warning: (.*)')


def tool(tree: str, name: str):
    """A module of the kernel tree's kunit_tool (tools/testing/kunit/NAME.py)."""
    path = os.path.join(tree, 'tools', 'testing', 'kunit')
    if not os.path.isfile(os.path.join(path, f'{name}.py')):
        raise FileNotFoundError(f'no {name}.py under {path}: run scripts/matrix.sh --prepare-only')
    sys.dont_write_bytecode = True
    if path not in sys.path:
        sys.path.insert(0, path)
    return importlib.import_module(name)


def parser(tree: str):
    """The kernel tree's kunit_parser, printing nothing."""
    kunit_parser = tool(tree, 'kunit_parser')
    kunit_parser.stdout = tool(tree, 'kunit_printer').Printer(io.StringIO())
    return kunit_parser


def kconfig(tree: str, path: str) -> Dict[str, str]:
    """The options a .config or a fragment sets, by name without CONFIG_ ('n': "is not set"),
    read by the tree's kunit_config."""
    return {e.name: e.value for e in tool(tree, 'kunit_config').parse_file(path).as_entries()}


def ktap(kp, lines: List[str], logs: Optional[Dict[str, List[str]]] = None) -> Tuple[
        Results, Dict[str, int], List[str]]:
    """A console log -> ({suite.case[.parameter]: (status, skip reason)},
    counts of the leaves by status, what is wrong with the output); into
    @logs, each failed or crashed test's own log lines (kunit_parser's).

    kunit_parser keeps no skip reason: it is read from the result lines,
    which come in the order of a post-order walk of the parsed tree."""
    status_of = {kp.TestStatus.SUCCESS: PASS, kp.TestStatus.SKIPPED: SKIP,
                 kp.TestStatus.FAILURE: FAIL}
    root = kp.parse_run_tests(lines)
    results: Results = {}
    counts = {PASS: 0, SKIP: 0, FAIL: 0, CRASH: 0}
    if root.status == kp.TestStatus.FAILURE_TO_PARSE_TESTS:
        return results, counts, ['no KTAP output (kernel did not boot or crashed early)']
    errors = ['no tests ran'] if root.status == kp.TestStatus.NO_TESTS else []
    result_lines = []
    for line in kp.extract_tap_lines(lines):
        m, skip = kp.TEST_RESULT.match(line), kp.TEST_RESULT_SKIP.match(line)
        if m:
            result_lines.append(((skip or m).group(4), skip.group(5).strip() if skip else ''))
    at = 0

    def reason_of(name: str) -> str:
        nonlocal at
        for i in range(at, len(result_lines)):
            if result_lines[i][0] == name:
                at = i + 1
                return result_lines[i][1]
        return ''

    def walk(test, prefix: str, index: int) -> None:
        name = test.name or f'#{index}'
        path = f'{prefix}.{name}' if prefix else name
        for i, sub in enumerate(test.subtests, 1):
            walk(sub, path, i)
        status = status_of.get(test.status, CRASH)
        reason = reason_of(test.name) if test.name else ''
        if path in results:
            errors.append(f'{path}: reported twice')
        results[path] = (status, reason if status == SKIP else '')
        if not test.subtests:
            counts[status] += 1
        if logs is not None and status in (FAIL, CRASH):
            logs[path] = [line.rstrip() for line in test.log]

    for i, suite in enumerate(root.subtests, 1):
        walk(suite, '', i)
    if root.counts.errors:
        errors.append(f'{root.counts.errors} KTAP parse error(s)')
    return dict(sorted(results.items())), counts, errors


def splats(lines: Iterable[str]) -> List[str]:
    return [line.strip() for line in lines if SPLAT.search(line)]


def booted_cpus(lines: Iterable[str]) -> int:
    """The CPUs a console log says the kernel brought up (1 when it says nothing: a UP kernel)."""
    return next((int(m.group(1)) for line in lines if (m := BROUGHT_UP.search(line))), 1)


def kmemleak_leaks(lines: List[str]) -> List[Tuple[str, str, str]]:
    """Every leak kmemleak printed: (its "unreferenced object" line, "comm
    pid" of the allocation, its backtrace's functions joined by spaces). A
    leak's block is the indented lines after its first."""
    out = []
    for i, line in enumerate(lines):
        if not KMEMLEAK_LEAK.search(line):
            continue
        who, trace = '', []
        for more in lines[i + 1:]:
            if not more[:1].isspace() or KMEMLEAK_LEAK.search(more):
                break
            m = KMEMLEAK_PID.search(more)
            who = f'{m.group(1)} {m.group(2)}' if m else who
            m = KMEMLEAK_FRAME.search(more)
            if m:
                trace.append(m.group(1))
        out.append((line.strip(), who, ' '.join(trace)))
    return out


def boot_leak(who: str, trace: str) -> bool:
    """A leak start_kernel() made on the boot CPU before kernel_init (pid 1, where the suites run)
    and every kthread existed: swapper/0, pid 0, start_kernel in its backtrace. Other pid 0
    allocations (the idle tasks, interrupts running the suites' timers and RCU callbacks) count."""
    return who == 'swapper/0 0' and 'start_kernel' in trace.split()


def kmemleak(lines: List[str]) -> Tuple[List[str], List[str]]:
    """(problems, notes) of the kmemleak scan after the suites (scripts/kmemleak-init.c): it must
    have finished and found no leak but those of early boot (boot_leak()), which are notes."""
    leaks = kmemleak_leaks(lines)
    ours = [line for line, who, trace in leaks if not boot_leak(who, trace)]
    boot = [line for line, who, trace in leaks if boot_leak(who, trace)]
    problems, notes = [], []
    if ours:
        problems.append(f'kmemleak: {len(ours)} leak(s) reported, first: {ours[0][:160]}')
    if boot:
        notes.append(f'kmemleak: {len(boot)} leak(s) allocated in early boot (start_kernel(), '
                     f'pid 0, before the suites), not counted; first: {boot[0][:160]}')
    errors = [line.strip() for line in lines if 'kmemleak-init: error:' in line]
    problems.extend(f'kmemleak: {e}' for e in errors[:1])
    off = [line.strip() for line in lines if 'Kernel memory leak detector disabled' in line]
    problems.extend(f'kmemleak: {e[:160]}' for e in off[:1])
    if not errors and not any('kmemleak-init: done:' in line for line in lines):
        problems.append('kmemleak: the scan after the suites did not finish '
                        '(no "kmemleak-init: done")')
    return problems, notes


def warnings(log: Iterable[str]) -> List[str]:
    """Every warning (compiler and kernel-doc) of a build log, as "path:
    warning: text" without line numbers, sorted, once."""
    return sorted({f'{m.group(1)}: warning: {m.group(2)}'
                   for m in (WARNING.search(line) for line in log) if m})


def located(found: Iterable[str], touched: Iterable[str], sched_only: bool) -> List[str]:
    """Of warnings(), those located in kernel/sched/ or, unless @sched_only, in a file of @touched
    (paths in the tree), with the path as in the tree."""
    touched = [t for t in touched if t]
    out = set()
    for w in found:
        path, text = w.split(': warning: ', 1)
        where = ''
        if 'kernel/sched/' in path:
            where = path[path.index('kernel/sched/'):]
        elif not sched_only:
            where = next((t for t in touched if path == t or path.endswith('/' + t)), '')
        if where:
            out.add(f'{where}: warning: {text}')
    return sorted(out)


def kunit_json(path: str) -> Dict[str, str]:
    """kunit.py's --json (KernelCI format) -> {path: PASS|SKIP|FAIL|ERROR}."""
    top = json.loads(config.read(path))
    out = {}

    def walk(group, prefix: str) -> None:
        for case in group.get('test_cases', []):
            out[f'{prefix}{case["name"]}'] = case['status']
        for sub in group.get('sub_groups', []):
            walk(sub, f'{prefix}{sub["name"]}.')

    walk(top, '')
    return out


def json_disagrees(results: Results, statuses: Dict[str, str]) -> List[str]:
    """Where kunit.py's own verdicts differ from the parse of the raw log."""
    want = {PASS: 'PASS', SKIP: 'SKIP', FAIL: 'FAIL', CRASH: 'ERROR'}
    out = []
    for name, status in sorted(statuses.items()):
        ours = results.get(name)
        if ours is None:
            # kunit.json names a crashed, unnamed test ''; the log has '#N'.
            if name.rsplit('.', 1)[-1]:
                out.append(f'kunit.json has {name}, the log does not')
        elif want[ours[0]] != status and not (ours[0] == CRASH and status == 'FAIL'):
            out.append(f'kunit.json says {name} {status}, the log {ours[0]}')
    return out
