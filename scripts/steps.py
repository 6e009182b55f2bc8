#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The series and steps files for the shell scripts (sched_tinify/config.py
reads them).

Usage:
  steps.py patches SERIES_DIR      patch file names, one per line (each
                                   checked to exist)
  steps.py names STEPS_FILE        step names, one per line
  steps.py sha STEPS_FILE STEP     the commit of one step

Errors go to stderr with exit status 1.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sched_tinify import config  # noqa: E402 pylint: disable=wrong-import-position


def main(argv):
    if len(argv) == 2 and argv[0] == 'patches':
        return '\n'.join(config.read_series(argv[1]))
    if len(argv) == 2 and argv[0] == 'names':
        return '\n'.join(n for n, _ in config.read_steps(argv[1]))
    if len(argv) == 3 and argv[0] == 'sha':
        steps = dict(config.read_steps(argv[1]))
        if argv[2] not in steps:
            raise config.ConfigError(f'no step {argv[2]} in {argv[1]} (known: {" ".join(steps)})')
        return steps[argv[2]]
    raise config.ConfigError(__doc__.strip())


if __name__ == '__main__':
    try:
        OUT = main(sys.argv[1:])
    except config.ConfigError as err:
        print(f'steps.py: {err}', file=sys.stderr)
        sys.exit(1)
    if OUT:
        print(OUT)
