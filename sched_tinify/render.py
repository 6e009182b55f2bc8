# SPDX-License-Identifier: GPL-2.0
"""The report's data (judge.judge_run() and the run's checks) as report.md,
JUnit XML per target, and the two lines a run ends with."""

import json
import os
import re
import xml.etree.ElementTree as ET
from typing import List

from . import config, judge

KINDS = [('cell', 'Cells: against the baseline in the same cell'),
         ('tiny', 'Tiny cells: against their expected results'),
         ('debug', 'Debug cells: against the plain cell at the same step; red on any '
                   'sanitizer, debug-object or kmemleak report'),
         ('build', 'Build-only configurations: W=1 warnings against the baseline build')]
NOT_XML = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')


def text(e: dict) -> str:
    """One square of a table."""
    s = e['status']
    if s == judge.LEFT:  # its own problems count even when its reference was left
        return '**RED** left' if e['problems'] or e['failures'] else 'left'
    if s == judge.NA:
        return 'n/a'
    if s in (judge.NOT_RUN, judge.STALE, judge.INCOMPLETE, judge.HARNESS, judge.BUILD_FAILED):
        return f'**{s.upper()}**'
    secs = f'({e["seconds"][0]}+{e["seconds"][1]} s)'
    if s == judge.BUILT:
        new = len(e['differences'])
        out = f'{len(e["warnings"])} warning(s){", **%d NEW**" % new if new else ""} {secs}'
        out += ' kernel/sched/ only' if e['scope'] == 'kernel/sched' else ''
        out += ' without the needs section' if e['needs_section'] == 'left out' else ''
    else:
        n = e['counts']
        out = f'{n["PASS"]}/{n["SKIP"]}/{n["FAIL"]}/{n["CRASH"]} {secs}'
        out += {judge.SAME: ' same', judge.DIFFERS: ' **DIFFERS**', judge.BASE: '',
                judge.BASE_RED: ' (baseline not green)', judge.AS_EXPECTED: ' as expected',
                judge.NOT_EXPECTED: ' **NOT AS EXPECTED**'}.get(s, f' {s}')
    return f'**RED** {out}' if e['problems'] or e['failures'] else out


def markdown(data: dict) -> str:
    steps = [s for s, _ in data['steps']]
    lines = ['# sched-tinify report', '', f'## Verdict: {data["verdict"]}', '',
             verdict_line(data), kunit_line(data), '']
    lines += [f'**WARNING: {w}**' for w in data.get('warnings', [])]
    lines += [f'- Kernel: {data["kernel"]} (Debian package {data["package"]} '
              f'{data["package_version"]})',
              f'- Series: {len(data["series"])} patch(es) in {data["series_dir"]}']
    lines += [f'  - `{name}` sha256 `{digest}`' for name, digest in data['series']]
    for kind, title in KINDS:
        names = [n for n, k in data['kinds'].items() if k == kind]
        if not names:
            continue
        lines += ['', f'## {title}', '', 'passed/skipped/failed/crashed (build+run seconds)'
                  if kind != 'build' else 'W=1 warnings in kernel/sched/ and the files the '
                  'series touches (build seconds)', '',
                  '| step | ' + ' | '.join(names) + ' |', '|---|' + '---|' * len(names)]
        lines += [f'| {s} | ' + ' | '.join(text(data['grid'][s][n]) if n in data['grid'][s]
                                           else '-' for n in names) + ' |' for s in steps]
    for title, items in (('Failures and problems', data['problems']),
                         ('Differences from the reference', data['differences']),
                         ('Left (not run by this command: the main job runs it)',
                          data.get('left_items', []) + data['left']),
                         ('Noted, not counted', data.get('notes', [])),
                         ('Skipped at the baseline, with reasons', data.get('skips', []))):
        lines += ['', f'## {title}', ''] + ([f'- {x}' for x in items] or ['None.'])
    for section in data.get('sections', []):
        lines += ['', f'## {section["title"]}', ''] + section['lines']
    return '\n'.join(lines) + '\n'


def kunit_line(data: dict) -> str:
    t = data['totals']
    return f'kunit: {t["PASS"]} passed, {t["FAIL"] + t["CRASH"]} failed, {t["SKIP"]} skipped'


def verdict_line(data: dict) -> str:
    also = ''.join(f', {x["check"]}' for x in data.get('sections', []) if x.get('check'))
    out = (f'verdict: {data["verdict"]}: {data["judged"]} target step(s){also} judged, '
           f'{len(data["problems"])} problem(s), {len(data["differences"])} difference(s)')
    mutants = data.get('left_mutants', 0)
    return out + (f', {len(data["left"])} target step(s) and {mutants} mutant run(s) left'
                  if data['left'] or mutants else '')


def overview(results: str, packages: List[str]) -> None:
    """RESULTS/report.md: the verdict of each kernel's report, side by side."""
    rows = ['# sched-tinify: the kernels', '', '| kernel | verdict | kunit |', '|---|---|---|']
    for pkg in packages:
        try:
            data = json.loads(config.read(os.path.join(results, pkg, 'report.json')))
            lines = (verdict_line(data), kunit_line(data))
        except (OSError, ValueError):
            lines = ('no report: the run stopped before it', '')
        rows.append(f'| [{pkg}]({pkg}/report.md) | ' + ' | '.join(lines) + ' |')
    config.write(os.path.join(results, 'report.md'), '\n'.join(rows) + '\n')


def xml(*lines: str) -> str:
    return NOT_XML.sub('?', '\n'.join(lines))


def junit(data: dict, name: str) -> ET.ElementTree:
    """One target: a testsuite per step, a testcase per test (a build-only
    configuration: per build), and one for what is wrong with the step."""
    top = ET.Element('testsuites', name=f'sched-tinify {name}')
    for step, _ in data['steps']:
        if name not in data['grid'][step]:
            continue
        e = data['grid'][step][name]
        suite = ET.SubElement(top, 'testsuite', name=f'{step} {name}')
        cases = []
        leaves = [p for p in e['results'] if not any(q.startswith(p + '.') for q in e['results'])]
        for path in leaves:
            status, reason = e['results'][path]
            # suite.case[.parameter]: only a parameter's description, free
            # text, may hold a dot ("known 6.1: ...").
            parts = path.split('.', 2)
            # A test that failed or crashed (a kernel fault) is a failure, with its log lines.
            cases.append(('.'.join(parts[:-1]) or step, parts[-1],
                          {'SKIP': ('skipped', reason), 'FAIL': ('failure', 'FAIL'),
                           'CRASH': ('failure', 'CRASH (no result)')}.get(status),
                          e.get('logs', {}).get(path, [])))
        if e['status'] == judge.LEFT:
            cases.append((step, 'run', ('skipped', 'left'), []))
        elif e['status'] == judge.NA:
            cases.append((step, 'run', ('skipped', 'n/a: no such option at this step'), []))
        # Only what the harness could not run or judge is an error; a kernel's fault (a splat,
        # a time-out, a failed build, no KTAP) or a red reference is a failure of the step.
        ours = [p for p in e['problems'] if judge.harness(p)]
        kernel = [p for p in e['problems'] if p not in ours] + [judge.BASE_RED] * (
            e['status'] == judge.BASE_RED)
        if ours:
            cases.append((step, 'harness', ('error', ours[0]), ours))
        if kernel:
            cases.append((step, 'kernel', ('failure', kernel[0]), kernel + e.get('excerpt', [])))
        if e['differences']:
            cases.append((step, 'same as the reference', ('failure', e['differences'][0]),
                          e['differences']))
        if not cases:
            cases.append((step, 'build', None, []))
        counts = {'tests': len(cases), 'failures': 0, 'errors': 0, 'skipped': 0}
        for classname, case_name, outcome, text in cases:
            case = ET.SubElement(suite, 'testcase', classname=xml(classname), name=xml(case_name))
            if outcome:
                kind, message = outcome
                ET.SubElement(case, kind, message=xml(message.split('\n')[0])).text = \
                    xml(*text) if text else None
                counts[{'skipped': 'skipped', 'failure': 'failures', 'error': 'errors'}[kind]] += 1
        for key, value in counts.items():
            suite.set(key, str(value))
    ET.indent(top)
    return ET.ElementTree(top)


def write(data: dict, folder: str) -> List[str]:
    """report.md, junit/<target>.xml and junit/report.xml (the verdict: a failure, or an error when
    the harness failed, listing every problem and difference, the sections' too, in a case named
    by the targets judged) into @folder (report.json is the caller's)."""
    os.makedirs(os.path.join(folder, 'junit'), exist_ok=True)
    paths = [os.path.join(folder, 'report.md')]
    config.write(paths[0], markdown(data))
    # An error when the harness failed (exit 2); the case is named by the targets judged.
    kind = 'error' if judge.exit_status(data['problems'], data['verdict']) == 2 else 'failure'
    red = data['verdict'] == 'RED'
    verdict = ET.Element('testsuite', name='sched-tinify verdict', tests='1', skipped='0', **{
        'errors': '0', 'failures': '0', f'{kind}s': str(int(red))})
    case = ET.SubElement(verdict, 'testcase', classname=','.join(data['names']), name='verdict')
    if red:
        ET.SubElement(case, kind, message=xml(verdict_line(data))).text = xml(
            *data['problems'], *data['differences'])
    trees = dict({n: junit(data, n) for n in data['kinds']}, report=ET.ElementTree(verdict))
    for name, tree in trees.items():
        paths.append(os.path.join(folder, 'junit', f'{name}.xml'))
        tree.write(paths[-1], encoding='utf-8', xml_declaration=True)
    return paths


def targets_rst(targets) -> str:
    """The targets as an rst simple table (docs/harness.rst holds it
    between ".. BEGIN python3 -m sched_tinify list --rst" and ".. END")."""
    rows = [['target', 'kind', 'arch', 'CPUs', 'needs', 'kunitconfig (+ expected results)']]
    rows += [[t.name, t.kind, t.arch, '' if t.build_only else str(t.cpus), t.needs,
              ' + '.join(t.kunitconfig + ((t.expected,) if t.expected else ()))]
             for t in targets]
    width = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    rule = '  '.join('=' * w for w in width)

    def line(r):
        return '  '.join(c.ljust(w) for c, w in zip(r, width)).rstrip()
    return '\n'.join([rule, line(rows[0]), rule] + [line(r) for r in rows[1:]] + [rule])

