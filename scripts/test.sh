#!/usr/bin/env bash
# The test command (.ci/run runs exactly this): set-up, the tooling's own
# unit tests, shellcheck, checkpatch --strict on the series and kunit/,
# the CI definition check, then as much of the main job and of the
# mutants (every suite must go red when the code it guards is broken) as
# ends before a deadline: SCHED_TINIFY_BUDGET minutes after it starts
# (default 75: CI stops a run at 90). python3 -m sched_tinify test runs
# the items one at a time in the order of what they prove per minute
# (sched_tinify/budget.py), takes an item only if its estimate ends before
# the deadline, stops one still running at the deadline, and writes the
# report of what ran, naming what it left to the main job and why.
#
# Usage: scripts/test.sh [--no-matrix | --full]
#   --no-matrix  stop after the static checks (for a quick local run)
#   --full       no deadline: the main job (scripts/matrix.sh) and every
#                mutant at its last step
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

mode=budget
case ${1:-} in
'') ;;
--no-matrix) mode=none ;;
--full) mode=full ;;
*) die "usage: ${0##*/} [--no-matrix | --full]" ;;
esac
budget=${SCHED_TINIFY_BUDGET:-75}
# Boots per variant of every cell at the last step (the repeats).
REPEAT=${SCHED_TINIFY_REPEAT:-5}
[[ $REPEAT =~ ^[0-9]+$ ]] || die "SCHED_TINIFY_REPEAT must be a number, not '$REPEAT'"
[[ $budget =~ ^[0-9]+$ ]] || die "SCHED_TINIFY_BUDGET must be minutes, not '$budget'"
lock_work

step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }

step "set-up: packages, kernel tree, the series applied as posted to the pristine tree"
run "$REPO/scripts/deps.sh"
run "$REPO/scripts/prepare-tree.sh"

step "unit tests of the tooling"
SCHED_TINIFY_TREE=$TREE run python3 -m unittest discover -s "$REPO/scripts/tests" \
	-t "$REPO/scripts" || red "tooling unit tests failed"

step "shellcheck"
# From the repository: the scripts' "shellcheck source=" paths start there.
(cd "$REPO" && shellcheck -x scripts/*.sh .ci/run) || red "shellcheck found problems"
echo "shellcheck: clean"

step "checkpatch --strict"
run "$REPO/scripts/checkpatch.sh" || fail_with $? "checkpatch found problems"

step "CI definition"
"$REPO/scripts/check-ci.sh"

[[ $mode != none ]] || exit 0

if [[ $mode == full ]]; then
	step "the main job: every target at every step, repeats, peer check"
	rc=0
	run "$REPO/scripts/matrix.sh" || rc=$?
	[[ $rc -eq 0 ]] || fail_with "$rc" "the main job is red or did not run (exit $rc): see $RESULTS/$PKG/report.md"
	step "mutants"
	run "$REPO/scripts/mutants.sh" --last-only "$REPO"/kunit/mutants/*/
	step "done in $SECONDS s"
	exit 0
fi
step "as much of the main job and of the mutants as ends before the deadline"
tinify test --budget "$budget" --elapsed "$SECONDS" --repeat "$REPEAT"
