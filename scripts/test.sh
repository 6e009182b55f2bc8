#!/usr/bin/env bash
# The test command (.ci/run runs exactly this): set-up (scripts/deps.sh,
# then the kernel tree with the series applied as posted to the pristine
# tree), the tooling's own unit tests, shellcheck, checkpatch --strict on
# the series and kunit/, the CI definition check, then as much of the main
# job and of the mutants (every suite must go red when the code it guards
# is broken) as ends before a deadline: SCHED_TINIFY_BUDGET minutes after
# it starts (default 75: CI stops a run at 90). python3 -m sched_tinify
# test runs the items one at a time in the order of what they prove per
# minute (sched_tinify/budget.py), takes an item only if its estimate ends
# before the deadline, stops one still running at the deadline, and
# writes the report of what ran, naming what it left to the main job and
# why. SCHED_TINIFY_REPEAT: boots a variant of every cell at the last step
# (default 5).
#
# Usage: scripts/test.sh [--no-matrix]
#   --no-matrix  stop after the static checks (for a quick local run)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h | --help) usage; exit 0 ;;
'' | --no-matrix) ;;
*) die "usage: ${0##*/} [--no-matrix]" ;;
esac
printf '== set-up: packages (at 0 s)\n'
"$REPO/scripts/deps.sh"
tinify test --elapsed "$SECONDS" "$@"
