# SPDX-License-Identifier: GPL-2.0
"""Check the CI definition (python3 -m sched_tinify ci): yamllint on the workflow, ci/matrix.json
against its schema, and the workflow parsed, not searched as text.

The workflow (.github/workflows/kunit-matrix.yml) must run, in the run: commands of its steps (not
in a comment), what the local scripts run: the static part of the test command, a job per cell of
ci/matrix.json, per build-only configuration and per tiny cell, the upstream-form tests and the
peer check, the repeats, the debug cells and the mutants (a job per target and suite of mutants,
to fit its timeout); put reports into the job summary; upload the JUnit files. Every job has a
timeout and no if:, continue-on-error: or || true that could skip or hide a run (on the job or a
step that runs scripts/ or sched_tinify); a job that restores the ccache saves it whatever the
verdict (but the mutants jobs, which take their target's), capped, under a key of the inputs; runs
start only for the paths results depend on, and a newer run of a branch cancels the older one. Exit status 0 when it holds, 1 with
a line per problem, 2 when the workflow cannot be read.
"""

import os
import re
import subprocess
import sys
from typing import Dict, List

from . import config

WORKFLOW = os.path.join(config.REPO, '.github', 'workflows', 'kunit-matrix.yml')
LINT = '{extends: default, rules: {line-length: {max: 100}, truthy: {check-keys: false}, ' \
    'document-start: disable}}'

# (job, text that one of its run: commands must contain)
WANT = [
    ('static', 'scripts/test.sh --no-matrix'),
    ('cells', 'python3 -m sched_tinify list --kinds cell --json'),
    ('cells', 'python3 -m sched_tinify list --kinds build --json'),
    ('cells', 'python3 -m sched_tinify list --kinds tiny --json'),
    ('cells', 'python3 -m sched_tinify list --kinds upstream --json'),
    ('cell', 'scripts/matrix.sh --kernel "$KERNEL" --targets "$CELL${dbg:+,$dbg}" --repeat'),
    ('cell', 'python3 -m sched_tinify list --kernel "$KERNEL" --kinds debug --same-as "$CELL"'),
    ('cell', 'GITHUB_STEP_SUMMARY'),
    ('builds', 'scripts/matrix.sh --kernel "$KERNEL" --targets "$TARGET"'),
    ('upstream', 'scripts/matrix.sh --kernel "$KERNEL" --kinds upstream --peer'),
    ('cells', 'python3 -m sched_tinify list --kinds cell,tiny --suites --json'),
    ('tiny', 'scripts/matrix.sh --kernel "$KERNEL" --targets "$TARGET"'),
    ('mutants', 'scripts/mutants.sh --kernel "$KERNEL" --targets "$TARGET" "$FOLDER/"'),
]
# Jobs per kernel and target (mutants: and suite), and the "cells" job's list they take.
MATRICES = {'cell': 'cells', 'mutants': 'mutants', 'builds': 'builds', 'tiny': 'tiny',
            'upstream': 'upstream'}
# The paths a run must start for.
PATHS = ['patches/**', 'kunit/**', 'kunitconfigs/**', 'ci/**', 'scripts/**', 'sched_tinify/**',
         'peer/**']


def commands(*steps: dict) -> str:
    """The shell of steps' run:, without comment lines."""
    return '\n'.join(line for step in steps for line in str(step.get('run', '')).splitlines()
                     if not line.lstrip().startswith('#'))


def check(wf: dict) -> List[str]:
    problems = []
    jobs: Dict[str, dict] = wf.get('jobs') or {}
    for name, text in WANT:
        if name not in jobs:
            problems.append(f'no job {name}')
        elif text not in commands(*jobs[name].get('steps') or []):
            problems.append(f'job {name}: no run: command with {text}')
    if (jobs.get('mutants', {}).get('env') or {}).get('FOLDER') != '${{ matrix.target.folder }}':
        problems.append('job mutants: its FOLDER is not its kernel\'s suite folder '
                        '(matrix.target.folder)')
    for name, kind in MATRICES.items():
        want = f'fromJSON(needs.cells.outputs.{kind})'
        if want not in str(jobs.get(name, {}).get('strategy', {})):
            problems.append(f'job {name}: its matrix does not come from ci/matrix.json ({want})')
    uploads = [s for j in jobs.values() for s in j.get('steps') or []
               if str(s.get('uses', '')).startswith('actions/upload-artifact')]
    if not any('junit' in str(s.get('with', {}).get('path', '')) for s in uploads):
        problems.append('no step uploads the JUnit files (results/*/junit/*.xml)')
    for name, job in jobs.items():
        steps = job.get('steps') or []
        runs = [s for s in steps if re.search(r'scripts/|sched_tinify', commands(s))]
        if 'timeout-minutes' not in job and runs:
            problems.append(f'job {name}: no timeout-minutes')
        if any(x.get('if', 'success()') != 'success()' or x.get('continue-on-error') or
               re.search(r'\|\|\s*(true|:)|;\s*true\b', commands(x)) for x in [job] + runs
               if runs):
            problems.append(f'job {name}: an if:, continue-on-error: or || true may hide its run')
        uses = [str(s.get('uses', '')) for s in steps]
        if any(u.startswith('actions/cache@') for u in uses):
            problems.append(f'job {name}: actions/cache saves only after a green run: '
                            'restore with actions/cache/restore, save with '
                            'actions/cache/save and if: always()')
        if name != 'mutants' and any(u.startswith('actions/cache/restore') for u in uses):
            saves = [s for s in steps if str(s.get('uses', '')).startswith('actions/cache/save')]
            if not saves or any(s.get('if') != 'always()' for s in saves):
                problems.append(f'job {name}: restores the ccache, never saves it if: always()')
    # PyYAML reads the key "on" as True (YAML 1.1).
    on = wf.get('on', wf.get(True)) or {}
    for event in ('push', 'pull_request'):
        paths = (on.get(event) or {}).get('paths') if isinstance(on, dict) else None
        if missing := [p for p in PATHS if p not in (paths or [])]:
            problems.append(f'on.{event}: no paths filter for {", ".join(missing)}')
    # The ccache: capped, and keyed by the inputs (not by the run, which adds an entry a run).
    if not str((wf.get('env') or {}).get('CCACHE_MAXSIZE', '')).strip():
        problems.append('no CCACHE_MAXSIZE for every job (env:)')
    keys = [str(s.get('with', {}).get('key', '')) for j in jobs.values() for s in
            j.get('steps') or [] if str(s.get('uses', '')).startswith('actions/cache/save')]
    if bad := [k for k in keys if 'hashFiles(' not in k or 'github.run_' in k]:
        problems.append(f'ccache saved under a key not of the inputs: {", ".join(bad)}')
    if not (wf.get('concurrency') or {}).get('group'):
        problems.append('no concurrency group')
    return problems


def main(path: str = WORKFLOW) -> int:
    import yaml  # pylint: disable=C0415  # here only: CI's cells job lists targets without it
    try:
        cells = config.targets(config.load(), kinds=('cell',))
        wf = yaml.safe_load(config.read(path))
    except (OSError, yaml.YAMLError, config.ConfigError) as err:
        print(f'ci: {err}', file=sys.stderr)
        return 2
    problems = check(wf or {})
    lint = subprocess.run(['yamllint', '-f', 'parsable', '-d', LINT, path], capture_output=True,
                          text=True, check=False)
    problems += [f'yamllint: {line}' for line in (lint.stdout + lint.stderr).splitlines()]
    if lint.returncode and not problems:
        problems.append(f'yamllint exited {lint.returncode}')
    for p in problems:
        print(f'ci: {path}: {p}', file=sys.stderr)
    print(f'CI definition {"OK" if not problems else "WRONG"}: {len(cells)} cells from '
          'ci/matrix.json')
    return 1 if problems else 0
