#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read a report.json (scripts/report.py writes it) for the other tools.

Every consumer of a run's verdict goes through here, never through the
wording of report.md:

  results.py summary REPORT_JSON     the verdict line, then the "kunit: N
                                     passed, N failed, N skipped" line
  results.py junit REPORT_JSON DIR   one JUnit XML per cell into DIR, and
                                     build-only.xml for the build-only
                                     configurations
  results.py mutants REPORT_JSON SUMMARY_MD [--control STEP]... STEP=MUTANT...
                                     judge a mutant run (scripts/mutants.sh):
                                     each STEP is a control step with one
                                     mutant; exit 1 unless every mutant did
                                     what it is expected to ("# expect:
                                     survive: why" in the file, else killed)
                                     in every cell that builds its code
                                     ("# cells: A B", else every cell)

Errors go to stderr with exit status 2.
"""

import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from steps import BASELINE  # noqa: E402 pylint: disable=wrong-import-position

# What XML 1.0 cannot hold (a console log can: escape sequences).
NOT_XML = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')


class ResultsError(Exception):
    """The report cannot be read, or is not of the run it is said to be."""


def load(path: str) -> dict:
    try:
        with open(path, encoding='utf-8') as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise ResultsError(f'cannot read {path}: {e}') from e
    if data.get('schema') != 2:
        raise ResultsError(f'{path}: not a report.json of schema 2 (made by an older '
                           'scripts/report.py: run the report again)')
    return data


def kunit_line(data: dict) -> str:
    t = data['totals']
    return (f'kunit: {t["PASS"]} passed, {t["FAIL"] + t["CRASH"]} failed, '
            f'{t["SKIP"]} skipped')


def verdict_line(data: dict) -> str:
    n = sum(1 for row in data['grid'].values() for e in row.values() if e['judged'])
    text = (f'verdict: {data["verdict"]}: {n} cell step(s) judged, '
            f'{len(data["problems"])} problem(s), {len(data["differences"])} difference(s)')
    if data.get('left'):
        text += f', {len(data["left"])} left to the main job'
    return text


def xml_text(lines: List[str]) -> str:
    return NOT_XML.sub('?', '\n'.join(lines))


def junit_xml(data: dict, cell: str) -> ET.ElementTree:
    """A cell's normalized results as JUnit: a testsuite per step."""
    top = ET.Element('testsuites', name=f'sched-tinify {cell}')
    for step in data['steps']:
        entry = data['grid'][step['name']][cell]
        suite = ET.SubElement(top, 'testsuite', name=f'{step["name"]} {cell}')
        counts = {'tests': 0, 'failures': 0, 'errors': 0, 'skipped': 0}
        if not entry['judged']:
            # No results to show: what an earlier run left is not this one's.
            case = ET.SubElement(suite, 'testcase', classname=step['name'], name='run')
            if entry['left']:
                ET.SubElement(case, 'skipped', message=entry['status'])
                counts['skipped'] += 1
            else:
                ET.SubElement(case, 'error', message=entry['status']).text = \
                    xml_text(entry['problems'])
                counts['errors'] += 1
            counts['tests'] += 1
            for key, value in counts.items():
                suite.set(key, str(value))
            continue
        leaves = [p for p in entry['results']
                  if not any(q.startswith(p + '.') for q in entry['results'])]
        for path in leaves:
            status, reason = entry['results'][path]
            # suite.case[.parameter]: only the parameter's description,
            # free text, may hold a dot ("known 6.1: ...").
            parts = path.split('.', 2)
            classname, name = ('.'.join(parts[:-1]), parts[-1])
            case = ET.SubElement(suite, 'testcase', classname=xml_text([classname]),
                                 name=xml_text([name]))
            counts['tests'] += 1
            if status == 'SKIP':
                ET.SubElement(case, 'skipped', message=xml_text([reason]))
                counts['skipped'] += 1
            elif status == 'FAIL':
                ET.SubElement(case, 'failure', message='FAIL')
                counts['failures'] += 1
            elif status == 'CRASH':
                ET.SubElement(case, 'error', message='CRASH (no result)')
                counts['errors'] += 1
        if entry['problems']:
            case = ET.SubElement(suite, 'testcase', classname=step['name'], name='harness')
            ET.SubElement(case, 'error', message='problems').text = xml_text(entry['problems'])
            counts['tests'] += 1
            counts['errors'] += 1
        if entry.get('differences'):
            case = ET.SubElement(suite, 'testcase', classname=step['name'],
                                 name='same as the baseline')
            ET.SubElement(case, 'failure', message='differs from the baseline').text = \
                xml_text(entry['differences'])
            counts['tests'] += 1
            counts['failures'] += 1
        for key, value in counts.items():
            suite.set(key, str(value))
    ET.indent(top)
    return ET.ElementTree(top)


def builds_junit_xml(data: dict) -> ET.ElementTree:
    """The build-only configurations as JUnit: a testsuite per step, a
    testcase per configuration (error: did not build; failure: a new W=1
    warning)."""
    top = ET.Element('testsuites', name='sched-tinify build-only configurations')
    for step in data['steps']:
        row = data['build_grid'].get(step['name'], {})
        suite = ET.SubElement(top, 'testsuite', name=f'{step["name"]} build-only')
        counts = {'tests': 0, 'failures': 0, 'errors': 0, 'skipped': 0}
        for build in data['builds']:
            e = row[build]
            case = ET.SubElement(suite, 'testcase', classname=step['name'], name=build)
            counts['tests'] += 1
            if e['left']:
                ET.SubElement(case, 'skipped', message=e['status'])
                counts['skipped'] += 1
            elif not e['judged']:
                ET.SubElement(case, 'error', message=e['status'])
                counts['errors'] += 1
            elif e['new_warnings']:
                ET.SubElement(case, 'failure', message='new W=1 warning').text = \
                    xml_text(e['new_warnings'])
                counts['failures'] += 1
        for key, value in counts.items():
            suite.set(key, str(value))
    ET.indent(top)
    return ET.ElementTree(top)


def write_junit(data: dict, out_dir: str) -> List[str]:
    """junit/<cell>.xml per cell, and junit/build-only.xml."""
    os.makedirs(out_dir, exist_ok=True)
    trees = [(cell, junit_xml(data, cell)) for cell in data['cells']]
    if data['builds']:
        trees.append(('build-only', builds_junit_xml(data)))
    paths = []
    for name, tree in trees:
        path = os.path.join(out_dir, f'{name}.xml')
        tree.write(path, encoding='utf-8', xml_declaration=True)
        paths.append(path)
    return paths


def expected(mutant: str) -> str:
    with open(mutant, encoding='utf-8') as f:
        return 'survived' if any(line.startswith('# expect: survive')
                                 for line in f) else 'killed'


def mutant_cells(mutant: str, cells: List[str]) -> List[str]:
    """The cells that build a mutant's code and can see what it breaks: its
    "# cells: A B" line, or all."""
    with open(mutant, encoding='utf-8') as f:
        for line in f:
            if line.startswith('# cells: '):
                return [c for c in cells if c in line[len('# cells: '):].split()]
    return list(cells)


def cell_result(e: dict) -> str:
    if not e['judged']:
        return 'invalid (did not build, run, or is stale)'
    if e['differences']:
        return 'killed'
    if e['red']:
        return 'invalid (red without a difference)'
    return 'survived'


def judge_mutants(data: dict, pairs: List[Tuple[str, str]], controls: List[str]) \
        -> Tuple[List[Tuple[str, str, Dict[str, str], str]], bool]:
    """Rows (step, expected, {cell: result}, first differences), and all as expected.

    Each pair is a mutant step and its mutant; a control step is a step of
    the real series that the mutant steps after it are judged from: it must
    be the same as the baseline. A mutant is judged in the cells that build
    its code; the others say "n/a".
    """
    steps = [s['name'] for s in data['steps'] if s['name'] != BASELINE]
    extra = set(steps) - {s for s, _ in pairs} - set(controls)
    missing = [s for s, _ in pairs if s not in data['grid']] + \
        [c for c in controls if c != BASELINE and c not in data['grid']]
    if extra or missing:
        raise ResultsError(f'the report\'s steps are not the mutant run\'s (extra: '
                           f'{sorted(extra)}, missing: {missing}): the mutant series was '
                           'not prepared')
    base = data['grid'].get(BASELINE)
    if not base or any(not e['judged'] or e['red'] for e in base.values()):
        raise ResultsError('the baseline is not green: mutants prove nothing')
    for c in controls:
        if c != BASELINE and any(not e['judged'] or e['red'] for e in data['grid'][c].values()):
            raise ResultsError(f'the control step {c} is not the same as the baseline: '
                               'mutants prove nothing')
    rows, good = [], True
    for step, mutant in pairs:
        want = expected(mutant)
        built = mutant_cells(mutant, data['cells'])
        by_cell = {}
        for c, e in data['grid'][step].items():
            by_cell[c] = cell_result(e) if c in built else 'n/a'
            good = good and by_cell[c] in (want, 'n/a')
        good = good and bool(built)
        diffs = [d for e in data['grid'][step].values() for d in e['differences']]
        rows.append((step, want, by_cell, ';'.join(diffs[:3])))
    return rows, good


def mutants_summary(rows, cells: List[str]) -> str:
    lines = [f'# Mutants ({",".join(cells)})', '']
    for c in cells:
        judged = [r for r in rows if r[2].get(c, 'n/a') != 'n/a' and r[1] == 'killed']
        killed = sum(1 for r in judged if r[2][c] == 'killed')
        lines.append(f'- {c}: {killed} of {len(judged)} mutant runs killed')
    lines += ['', '| step | expected | ' + ' | '.join(cells) + ' | first differences |',
              '|---|---|' + '---|' * len(cells) + '---|']
    lines += [f'| {s} | {w} | ' + ' | '.join(r.get(c, 'n/a') for c in cells) +
              f' | {d.replace("|", chr(92) + "|")} |' for s, w, r, d in rows]
    return '\n'.join(lines) + '\n'


def main(argv: List[str]) -> int:
    if len(argv) == 2 and argv[0] == 'summary':
        data = load(argv[1])
        print(verdict_line(data))
        print(kunit_line(data))
        return 0
    if len(argv) == 3 and argv[0] == 'junit':
        for path in write_junit(load(argv[1]), argv[2]):
            print(path)
        return 0
    if len(argv) >= 4 and argv[0] == 'mutants':
        data = load(argv[1])
        controls, pairs, rest = [], [], argv[3:]
        while rest:
            if rest[0] == '--control' and len(rest) > 1:
                controls.append(rest[1])
                rest = rest[2:]
            elif '=' in rest[0]:
                pairs.append(tuple(rest[0].split('=', 1)))
                rest = rest[1:]
            else:
                raise ResultsError(f'mutants: not --control STEP or STEP=MUTANT: {rest[0]}')
        rows, good = judge_mutants(data, pairs, controls)
        text = mutants_summary(rows, data['cells'])
        with open(argv[2], 'w', encoding='utf-8') as f:
            f.write(text)
        print(text, end='')
        return 0 if good else 1
    raise ResultsError(__doc__.strip())


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except ResultsError as err:
        print(f'results.py: {err}', file=sys.stderr)
        sys.exit(2)
