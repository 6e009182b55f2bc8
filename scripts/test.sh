#!/usr/bin/env bash
# The test command (.ci/run runs exactly this): set-up (scripts/deps.sh,
# the tree with the series applied as posted), the unit tests, the
# checks of shellcheck, checkpatch --strict and of the CI definition, then
# as much of the main job and of the mutants as ends before a deadline,
# SCHED_TINIFY_BUDGET minutes after it starts (default 75: CI stops a run
# at 90), in the order of what each item proves per minute; the report
# names what it left, and why (docs/budget.rst). SCHED_TINIFY_REPEAT:
# boots a variant of every cell at the last step (default 5).
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
