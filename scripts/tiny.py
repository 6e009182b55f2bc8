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
  tiny.py mutants --results DIR --cell CELL --expected FILE --summary OUT
                  --steps-file FILE --control STEP STEP=MUTANT...
      judge the runs of mutant steps (scripts/mutants.sh --tiny): the
      control step (the series without a mutant) must be as expected;
      then a mutant is killed when its step's results.txt differs from the
      expected results, survived when it does not, invalid when its run is
      missing, incomplete or made at another commit than the steps file
      names; write the summary table to OUT
      (as results.py does for the other mutants); exit 0 only if every
      mutant did what its file expects ("# expect: survive: ...").

An expected file has one line per test: path, status (PASS, SKIP, FAIL,
CRASH) and, for a skip, its reason, separated by tabs; lines starting
with # are comments. Besides the KUnit tests, the raw console (what boot
self-tests print) gives results of its own: "console: no kernel splat"
(always; FAIL when a WARNING, BUG, Oops... line is there), and for each
expected "console has: TEXT" or "console lacks: TEXT" line, PASS when the
console has (lacks) a line containing TEXT, FAIL otherwise. A run is GREEN
when it is complete, at the given commit, with no problem (splat, parse
error, kunit.json disagreeing), and its results are exactly the expected
ones.
"""

import argparse
import os
import sys
from typing import Dict, List, Tuple

import report
import results as results_mod
import steps as steps_mod

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


NO_SPLAT, HAS, LACKS = 'console: no kernel splat', 'console has: ', 'console lacks: '


def console_results(d: str, expected: Results) -> Results:
    """The console's results (see the header) of the run in @d, {} when it
    has no console log."""
    try:
        with open(os.path.join(d, 'test.log'), encoding='utf-8', errors='replace') as f:
            lines = f.read().splitlines()
    except OSError:
        return {}

    def status(ok: bool) -> Tuple[str, str]:
        return (report.PASS if ok else report.FAIL, '')

    out = {NO_SPLAT: status(not any(report.SPLAT.search(line) for line in lines))}
    for path in expected:
        for prefix, want in ((HAS, True), (LACKS, False)):
            if path.startswith(prefix):
                text = path[len(prefix):]
                out[path] = status(any(text in line for line in lines) == want)
    return out


def judge(tree: str, d: str, expected: Results, sha: str) -> Tuple[bool, List[str], Results]:
    """(green, what is wrong, results) of the run in d: its KUnit results
    and its console's."""
    step = os.path.basename(os.path.dirname(os.path.normpath(d)))
    name = os.path.basename(os.path.normpath(d))
    cell = report.load_cell(report.load_parser(tree), os.path.dirname(os.path.dirname(
        os.path.normpath(d))), step, name, sha or None)
    wrong = list(cell.problems) + list(cell.failures)
    results = dict(cell.results)
    if results:
        results.update(console_results(d, expected))
        wrong.extend(report.differences(expected, results, 'expected'))
    elif not wrong:
        wrong.append('no results')
    return not wrong, wrong, results


def step_results(results: str, cell: str, step: str,
                 sha_of: Dict[str, str]) -> Tuple[Dict[str, str], Results]:
    """(meta, results) of a cell's run at a step, ({}, {}) when there is
    no complete run made at the step's commit."""
    d = os.path.join(results, step, cell)
    try:
        meta = report.read_meta(os.path.join(d, 'meta'))
        got = read_expected(os.path.join(d, 'results.txt'))
    except (OSError, ValueError):
        return {}, {}
    if (meta.get('complete') != 'y' or 'harness_failed' in meta
            or meta.get('sha') != sha_of.get(step)):
        return {}, {}
    return meta, got


def judge_mutants(results: str, cell: str, expected: Results, pairs: List[str],
                  sha_of: Dict[str, str]) -> Tuple[List[Tuple[str, str, Dict[str, str], str]],
                                                    bool]:
    """Rows (step, expected, {cell: result}, first differences) of the mutant steps
    in @pairs ("STEP=MUTANT"), and whether all did as their file expects.
    @sha_of: the commit of every step (a run made at another is stale)."""
    rows, good = [], True
    for pair in pairs:
        step, sep, mutant = pair.partition('=')
        if not sep:
            raise ValueError(f'not STEP=MUTANT: {pair}')
        _, got = step_results(results, cell, step, sha_of)
        diffs = report.differences(expected, got, 'expected') if got else []
        if not got:
            result = 'invalid (did not build, run, or is stale)'
        elif diffs:
            result = 'killed'
        else:
            result = 'survived'
        want = results_mod.expected(mutant)
        good = good and result == want
        rows.append((step, want, {cell: result}, ';'.join(diffs[:3])))
    return rows, good


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('command', choices=('judge', 'expected', 'mutants'))
    ap.add_argument('--tree')
    ap.add_argument('--dir')
    ap.add_argument('--expected')
    ap.add_argument('--sha', default='')
    ap.add_argument('--results')
    ap.add_argument('--cell')
    ap.add_argument('--summary')
    ap.add_argument('--steps-file')
    ap.add_argument('--control')
    ap.add_argument('pairs', nargs='*', metavar='STEP=MUTANT')
    args = ap.parse_intermixed_args(argv)
    try:
        if args.command == 'mutants':
            if not (args.results and args.cell and args.expected and args.summary
                    and args.steps_file and args.control and args.pairs):
                raise ValueError('mutants needs --results, --cell, --expected, --steps-file, '
                                 '--control, --summary and STEP=MUTANT pairs')
            sha_of = dict(steps_mod.read_steps(args.steps_file))
            expected = read_expected(args.expected)
            # The control: the unmutated step must be as expected, or a
            # "killed" proves nothing.
            _, got = step_results(args.results, args.cell, args.control, sha_of)
            if not got or report.differences(expected, got, 'expected'):
                text = (f'# Mutants ({args.cell})\n\nThe control step {args.control} is not '
                        f'as expected (not run, stale, or different): mutants prove '
                        f'nothing.\n')
                rows, good = [], False
            else:
                rows, good = judge_mutants(args.results, args.cell, expected, args.pairs,
                                           sha_of)
                text = results_mod.mutants_summary(rows, [args.cell])
            with open(args.summary, 'w', encoding='utf-8') as f:
                f.write(text)
            print(text, end='')
            return 0 if good else 1
        if not (args.tree and args.dir):
            raise ValueError(f'{args.command} needs --tree and --dir')
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
