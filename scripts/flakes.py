#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the repeated boots of one cell (scripts/repeat.sh): flakes per case.

The folder holds meta (cell, step, sha, count) and VARIANT/NNN/ runs, each
with test.log (the console) and meta (variant, cpus asked for, load,
exec_rc, timed_out, booted_cpus, seconds). Every run's log is normalized as
scripts/report.py does; each run of a variant is compared with the
variant's first run. A case flakes when some run's result for it (status or
skip reason) differs from the first run's. A run fails when a case fails or
crashes, when there is no KTAP output, when QEMU timed out or kunit.py
exited non-zero, when the console holds a kernel report (report.SPLAT), or
when the kernel brought up another CPU count than asked for. The first
runs of the variants are also compared with the first variant's (the cell
as it is): such differences (a case that skips with 2 CPUs, say) are
listed, and they are not flakes.

Usage: flakes.py --tree TREE DIR
Writes DIR/summary.json and DIR/summary.txt, prints the verdict line.
Exit status: 0 no flake and no failed run, 1 otherwise, 2 bad input.
"""

import argparse
import json
import os
import sys
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402 pylint: disable=wrong-import-position

Results = Dict[str, Tuple[str, str]]


def run_problems(meta: Dict[str, str], lines: List[str], results: Results,
                 errors: List[str]) -> List[str]:
    """Why one run failed; empty when it did not."""
    out = list(errors)
    if meta.get('complete') != 'y':
        out.append('the run did not finish')
    if meta.get('timed_out') == 'y':
        out.append('QEMU timed out')
    failed = [p for p, (s, _) in sorted(results.items()) if s in (report.FAIL, report.CRASH)]
    out.extend(f'{p}: {results[p][0]}' for p in failed)
    if meta.get('exec_rc', '0') != '0' and not failed:
        out.append(f'kunit.py exec exited {meta.get("exec_rc")} with no failed test')
    splats = [line.strip() for line in lines if report.SPLAT.search(line)]
    if splats:
        out.append(f'kernel splat: {len(splats)} line(s), first: {splats[0][:160]}')
    if meta.get('booted_cpus') != meta.get('cpus'):
        out.append(f'{meta.get("booted_cpus")} CPU(s) up, {meta.get("cpus")} asked for')
    return out


def judge(parser, folder: str) -> dict:
    """Everything summary.json holds."""
    top = report.read_meta(os.path.join(folder, 'meta'))
    variants = sorted(v for v in os.listdir(folder)
                      if os.path.isdir(os.path.join(folder, v)))
    if not variants:
        raise report.ReportError(f'{folder}: no runs')
    # The cell as it is first (the variant with the fewest decorations).
    variants.sort(key=lambda v: (v != f'cpus{top.get("cpus", "")}', '-' in v, v))
    data = {'cell': top.get('cell', os.path.basename(folder)), 'step': top.get('step', ''),
            'sha': top.get('sha', ''), 'count': int(top.get('count', '0') or 0),
            'variants': {}, 'cross': {}}
    first: Dict[str, Results] = {}
    for v in variants:
        vdir = os.path.join(folder, v)
        runs = sorted(r for r in os.listdir(vdir) if os.path.isdir(os.path.join(vdir, r)))
        ref: Optional[Results] = None
        flaky: Dict[str, int] = {}
        failed: List[str] = []
        seconds: List[int] = []
        meta: Dict[str, str] = {}
        for r in runs:
            meta = report.read_meta(os.path.join(vdir, r, 'meta'))
            try:
                with open(os.path.join(vdir, r, 'test.log'), encoding='utf-8',
                          errors='backslashreplace') as f:
                    lines = f.readlines()
            except OSError:
                lines = []
            results, _, errors = report.normalize(parser, lines)
            probs = run_problems(meta, lines, results, errors)
            failed.extend(f'{v}/{r}: {p}' for p in probs)
            seconds.append(int(meta.get('seconds', '0') or 0))
            if ref is None:
                ref = results
                continue
            for case in set(ref) | set(results):
                if ref.get(case) != results.get(case):
                    flaky[case] = flaky.get(case, 0) + 1
        # Every variant boots count times (meta): a run that never happened
        # proves nothing.
        if len(runs) != data['count']:
            failed.append(f'{v}: {len(runs)} run(s), {data["count"]} asked for')
        first[v] = ref or {}
        data['variants'][v] = {
            'runs': len(runs), 'cpus': meta.get('cpus', ''), 'load': meta.get('load', 'n'),
            'flaky': flaky, 'failed': failed,
            'seconds': [min(seconds), max(seconds)] if seconds else [],
            'cases': len(ref or {}),
        }
    base = variants[0]
    for v in variants[1:]:
        d = report.differences(first[base], first[v], base)
        if d:
            data['cross'][v] = d
    flakes = sum(len(e['flaky']) for e in data['variants'].values())
    fails = sum(len(e['failed']) for e in data['variants'].values())
    runs = sum(e['runs'] for e in data['variants'].values())
    data['totals'] = {'runs': runs, 'flaky_cases': flakes, 'failed': fails}
    data['verdict'] = 'GREEN' if not flakes and not fails and runs else 'RED'
    data['line'] = (f'{data["cell"]} at {data["step"]}: {data["verdict"]}: {runs} run(s) in '
                    f'{len(variants)} variant(s) ({", ".join(variants)}), '
                    f'{flakes} flaky case(s), {fails} failed run problem(s)')
    return data


def render(data: dict) -> str:
    out = [data['line'], '']
    for v, e in data['variants'].items():
        secs = '-'.join(str(s) for s in dict.fromkeys(e['seconds']))
        out.append(f'{v}: {e["runs"]} run(s), {e["cpus"]} CPU(s), host loaded: {e["load"]}, '
                   f'{e["cases"]} results a run, {secs} s a run')
        out.extend(f'  flaky: {c}: differs from the first run in {n} run(s)'
                   for c, n in sorted(e['flaky'].items()))
        out.extend(f'  failed: {p}' for p in e['failed'])
    for v, d in data['cross'].items():
        out.append(f'{v} against the cell as it is (not a flake): {len(d)} difference(s)')
        out.extend(f'  {x}' for x in d)
    return '\n'.join(out) + '\n'


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    ap.add_argument('--tree', required=True)
    ap.add_argument('folder')
    args = ap.parse_args(argv)
    try:
        data = judge(report.load_parser(args.tree), args.folder)
    except (OSError, report.ReportError) as e:
        print(f'flakes.py: {e}', file=sys.stderr)
        return 2
    with open(os.path.join(args.folder, 'summary.json'), 'w', encoding='utf-8') as f:
        json.dump(data, f, indent=1, sort_keys=True)
    with open(os.path.join(args.folder, 'summary.txt'), 'w', encoding='utf-8') as f:
        f.write(render(data))
    print(data['line'])
    return 0 if data['verdict'] == 'GREEN' else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
