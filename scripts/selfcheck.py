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
    ('UBSAN', re.compile(r'UBSAN: shift-out-of-bounds')),
    ('debug objects', re.compile(r'ODEBUG: init active .*object type: timer_list')),
    ('KASAN', re.compile(r'BUG: KASAN: use-after-free in debug_selfcheck_planted')),
]


def judge(lines: List[str]) -> List[Tuple[str, bool, str]]:
    """(check, caught, the line that shows it or why not)."""
    out = []
    for name, pattern in CHECKS:
        hit = next((line.strip() for line in lines if pattern.search(line)), '')
        out.append((name, bool(hit), hit or f'no line matches /{pattern.pattern}/'))
    problems, _ = report.kmemleak_problems(lines)
    leak = next((p for p in problems if p.startswith('kmemleak: ') and 'leak(s) reported' in p), '')
    out.append(('kmemleak', bool(leak), leak or 'no leak allocated by a task reported'))
    # The report must be red on it, too: every planted bug is a problem there.
    splats = [line for line in lines if report.SPLAT.search(line)]
    out.append(('report', bool(splats) and bool(leak),
                f'{len(splats)} splat line(s) and the leak make the cell red' if splats and leak
                else 'the report would not be red'))
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
