#!/usr/bin/env bash
# Prove that the tests can fail: every mutant (kunit/mutants/SUITE/*.sed, a
# sed script that breaks the code a suite guards; its header says where
# it applies) laid on the tree at its first step and its last, in every
# target of its kind, must make the results differ from its control's
# (python3 -m sched_tinify mutants; sched_tinify/mutants.py). Results and
# summary.md: results/PKG/mutants/.
#
# Usage: scripts/mutants.sh [--targets A,B | --kinds tiny] [--last-only]
#                           [--judge-only: run nothing] DIR|FILE...
#   DIR   folders of mutants; FILE: one mutant, or a list (kunit/mutants/ci-subset)
# Exit status: 0 when every mutant did what it is expected to, 1 when one
# did not, 2 when they could not be run, 75 the work folder is busy.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[[ ${1:-} != -h && ${1:-} != --help ]] || { usage; exit 0; }
tinify mutants "$@"
