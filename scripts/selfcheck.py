#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a debug cell's self-check (scripts/debug-selfcheck.sh): the console
of a boot with the planted bugs of scripts/debug-selfcheck.c must show each
of them reported, by the check that is there to catch it.

Usage: selfcheck.py LOG
Prints one line per check (caught or MISSED, with the line that shows it)
and a verdict line. Exit status: 0 every planted bug was reported, 1 one
was missed, 2 the log cannot be read.
"""

import os
import re
import sys
from typing import List, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402 pylint: disable=wrong-import-position

# (check, what the console must have) for each planted bug.
CHECKS = [
    ('UBSAN', re.compile(r'UBSAN: shift-out-of-bounds in \S*kernel/sched/debug_selfcheck\.c:')),
    ('debug objects', re.compile(r'ODEBUG: init active .*object type: timer_list '
                                 r'hint: selfcheck_timer_fn')),
    ('KASAN', re.compile(r'BUG: KASAN: use-after-free in debug_selfcheck_planted')),
]


def judge(lines: List[str]) -> List[Tuple[str, bool, str]]:
    """(check, caught, the line that shows it or why not)."""
    out = []
    for name, pattern in CHECKS:
        hit = next((line.strip() for line in lines if pattern.search(line)), '')
        out.append((name, bool(hit), hit or f'no line matches /{pattern.pattern}/'))
    # The planted allocations (128 bytes, from debug_selfcheck_planted()),
    # counted as the suites' by the report.
    planted = [line for line, who, trace in report.kmemleak_leaks(lines)
               if '(size 128)' in line and 'debug_selfcheck_planted' in trace.split()
               and not report.boot_leak(who, trace)]
    problems, _ = report.kmemleak_problems(lines)
    counted = any('leak(s) reported' in p for p in problems)
    out.append(('kmemleak', bool(planted) and counted,
                f'{len(planted)} planted object(s) reported, counted by the report: {counted}'
                if planted else 'no leak from debug_selfcheck_planted() reported'))
    # Each report is one that makes the report red (report.SPLAT): UBSAN's
    # and KASAN's lines, and the WARNING that ODEBUG prints.
    red = [any(report.SPLAT.search(line) and pattern.search(line) for line in lines)
           for pattern in (CHECKS[0][1], CHECKS[2][1])]
    red.append(any(report.SPLAT.search(line) and 'lib/debugobjects.c' in line
                   for line in lines))
    out.append(('report', all(red), 'UBSAN, KASAN and the ODEBUG WARNING are splats'
                if all(red) else f'not a splat in the report: {red}'))
    return out


def main(argv: List[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding='utf-8', errors='backslashreplace') as f:
            lines = f.readlines()
    except OSError as e:
        print(f'selfcheck.py: {e}', file=sys.stderr)
        return 2
    results = judge(lines)
    for name, caught, why in results:
        print(f'{name}: {"caught" if caught else "MISSED"}: {why[:200]}')
    missed = [name for name, caught, _ in results if not caught]
    print(f'selfcheck: {"GREEN" if not missed else "RED"}: '
          f'{len(results) - len(missed)} of {len(results)} caught'
          + (f', missed: {", ".join(missed)}' if missed else ''))
    return 1 if missed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
