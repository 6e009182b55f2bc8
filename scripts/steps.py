#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The series file for the shell scripts (sched_tinify/config.py reads it).

Usage:
  steps.py patches SERIES_DIR      patch file names, one per line (each
                                   checked to exist)

Errors go to stderr with exit status 1.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sched_tinify import config  # noqa: E402 pylint: disable=wrong-import-position


def main(argv):
    if len(argv) == 2 and argv[0] == 'patches':
        return '\n'.join(config.read_series(argv[1]))
    raise config.ConfigError(__doc__.strip())


if __name__ == '__main__':
    try:
        OUT = main(sys.argv[1:])
    except config.ConfigError as err:
        print(f'steps.py: {err}', file=sys.stderr)
        sys.exit(1)
    if OUT:
        print(OUT)
