#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The one reader of a series folder's `series` file and of the steps file.

A series file lists patch file names in order, one per line; `#` starts a
comment; a last line without a newline counts. The steps file
(scripts/prepare-tree.sh writes it) has one "NN-name sha" line per step,
00-baseline first.

Usage:
  steps.py patches SERIES_DIR      patch file names, one per line (each
                                   checked to exist)
  steps.py names STEPS_FILE        step names, one per line
  steps.py sha STEPS_FILE STEP     the commit of one step

Errors go to stderr with exit status 1.
"""

import hashlib
import os
import sys
from typing import List, Tuple

BASELINE = '00-baseline'


class StepsError(Exception):
    """A series or steps file is missing or malformed, or a step is unknown."""


def read_series(series_dir: str) -> List[str]:
    """Patch file names of SERIES_DIR/series, in order."""
    path = os.path.join(series_dir, 'series')
    try:
        with open(path, encoding='utf-8') as f:
            names = [line.split('#', 1)[0].strip() for line in f]
    except OSError as e:
        raise StepsError(f'no series file at {path}: {e.strerror}') from e
    names = [n for n in names if n]
    for n in names:
        if not os.path.isfile(os.path.join(series_dir, n)):
            raise StepsError(f'{path} names {n}, but {os.path.join(series_dir, n)} '
                             'does not exist')
    return names


def series_digests(series_dir: str) -> List[Tuple[str, str]]:
    """(name, sha256) of every patch of the series, in order."""
    out = []
    for name in read_series(series_dir):
        with open(os.path.join(series_dir, name), 'rb') as f:
            out.append((name, hashlib.sha256(f.read()).hexdigest()))
    return out


def read_steps(path: str) -> List[Tuple[str, str]]:
    """(name, commit) of every step, 00-baseline first."""
    try:
        with open(path, encoding='utf-8') as f:
            lines = [line.split() for line in f if line.strip()]
    except OSError as e:
        raise StepsError(f'no steps file at {path} ({e.strerror}): '
                         'run scripts/prepare-tree.sh') from e
    if any(len(parts) != 2 for parts in lines):
        raise StepsError(f'{path}: every line must be "NN-name sha"')
    steps = [(name, sha) for name, sha in lines]
    if not steps or steps[0][0] != BASELINE:
        raise StepsError(f'{path}: the first step must be {BASELINE}')
    return steps


def step_sha(path: str, step: str) -> str:
    for name, sha in read_steps(path):
        if name == step:
            return sha
    raise StepsError(f'no step {step} in {path} (known: '
                     f'{" ".join(n for n, _ in read_steps(path))})')


def main(argv: List[str]) -> str:
    if len(argv) == 2 and argv[0] == 'patches':
        return '\n'.join(read_series(argv[1]))
    if len(argv) == 2 and argv[0] == 'names':
        return '\n'.join(n for n, _ in read_steps(argv[1]))
    if len(argv) == 3 and argv[0] == 'sha':
        return step_sha(argv[1], argv[2])
    raise StepsError(__doc__.strip())


if __name__ == '__main__':
    try:
        OUT = main(sys.argv[1:])
    except StepsError as err:
        print(f'steps.py: {err}', file=sys.stderr)
        sys.exit(1)
    if OUT:
        print(OUT)
