#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a tiny cell's run against the cell's own expected results.

Usage:
  tiny.py judge --tree TREE --dir DIR --expected FILE [--sha SHA]
      DIR is a run of scripts/run-cell.sh (meta, test.log, kunit.json):
      write DIR/results.txt (the normalized results, as report.py writes
      them for the other cells) and DIR/verdict (one line), print the
      verdict; exit 0 when GREEN, 1 when RED, 2 when it cannot judge.
  tiny.py expected --tree TREE --dir DIR
      print the normalized results of a run, in the expected file's
      format: to start an expected file, to be read and checked by hand.

An expected file has one line per test: path, status (PASS, SKIP, FAIL,
CRASH) and, for a skip, its reason, separated by tabs; lines starting
with # are comments. A run is GREEN when it is complete, at the given
commit, with no problem (splat, parse error, kunit.json disagreeing), and
its results are exactly the expected ones.
"""

import argparse
import os
import sys
from typing import Dict, List, Tuple

import report

Results = Dict[str, Tuple[str, str]]
STATUSES = (report.PASS, report.SKIP, report.FAIL, report.CRASH)


def read_expected(path: str) -> Results:
    out: Results = {}
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            parts = line.split('\t')
            if len(parts) not in (2, 3) or parts[1] not in STATUSES:
                raise ValueError(f'{path}:{n}: not "path<TAB>status[<TAB>reason]"')
            if parts[0] in out:
                raise ValueError(f'{path}:{n}: {parts[0]} listed twice')
            out[parts[0]] = (parts[1], parts[2] if len(parts) == 3 else '')
    if not out:
        raise ValueError(f'{path}: no expected result')
    return out


def judge(tree: str, d: str, expected: Results, sha: str) -> Tuple[bool, List[str], Results]:
    """(green, what is wrong, results) of the run in d."""
    step = os.path.basename(os.path.dirname(os.path.normpath(d)))
    name = os.path.basename(os.path.normpath(d))
    cell = report.load_cell(report.load_parser(tree), os.path.dirname(os.path.dirname(
        os.path.normpath(d))), step, name, sha or None)
    wrong = list(cell.problems) + list(cell.failures)
    if cell.results:
        for line in report.differences(expected, cell.results):
            wrong.append(line.replace('baseline', 'expected'))
    elif not wrong:
        wrong.append('no results')
    return not wrong, wrong, cell.results


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('command', choices=('judge', 'expected'))
    ap.add_argument('--tree', required=True)
    ap.add_argument('--dir', required=True)
    ap.add_argument('--expected')
    ap.add_argument('--sha', default='')
    args = ap.parse_args(argv)
    try:
        if args.command == 'expected':
            _, _, results = judge(args.tree, args.dir, {}, args.sha)
            print('\n'.join(report.results_lines(results)))
            return 0
        if not args.expected:
            raise ValueError('judge needs --expected')
        green, wrong, results = judge(args.tree, args.dir, read_expected(args.expected),
                                      args.sha)
        with open(os.path.join(args.dir, 'results.txt'), 'w', encoding='utf-8') as f:
            f.write(''.join(line + '\n' for line in report.results_lines(results)))
        counts = {s: sum(1 for v, _ in results.values() if v == s) for s in STATUSES}
        ran = ', '.join(f'{n} {s.lower()}' for s, n in counts.items() if n) or 'nothing'
        d = os.path.normpath(args.dir)
        head = f'{os.path.basename(os.path.dirname(d))} {os.path.basename(d)}'
        if green:
            line = f'{head}: GREEN: as expected ({ran})'
        else:
            line = f'{head}: RED: {len(wrong)} problem(s): {"; ".join(wrong[:5])}'
        with open(os.path.join(args.dir, 'verdict'), 'w', encoding='utf-8') as f:
            f.write(line + '\n')
        print(line)
        return 0 if green else 1
    except (OSError, ValueError, report.ReportError) as e:
        print(f'tiny.py: error: {e}', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
