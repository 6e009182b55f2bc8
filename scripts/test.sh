#!/usr/bin/env bash
# The test command (.ci/run runs exactly this): set-up, the tooling's own
# unit tests, shellcheck, checkpatch --strict on the series and kunit/,
# the CI definition check, the full matrix (scripts/matrix.sh), then the
# mutants (scripts/mutants.sh): every suite must go red when the code it
# guards is broken.
#
# Usage: scripts/test.sh [--no-matrix]
#   --no-matrix  stop after the static checks (for a quick local run)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

run_matrix=y
case ${1:-} in
'') ;;
--no-matrix) run_matrix=n ;;
*) die "usage: ${0##*/} [--no-matrix]" ;;
esac

step() { printf '\n== %s\n' "$*"; }

step "set-up: packages and kernel tree"
"$REPO/scripts/deps.sh"
"$REPO/scripts/prepare-tree.sh"

step "unit tests of the tooling"
SCHED_TINIFY_TREE=$TREE python3 -m unittest discover -s "$REPO/scripts/tests" -t "$REPO/scripts" ||
	die "tooling unit tests failed"

step "shellcheck"
# From the repository: the scripts' "shellcheck source=" paths start there.
(cd "$REPO" && shellcheck -x scripts/*.sh .ci/run) || die "shellcheck found problems"
echo "shellcheck: clean"

step "checkpatch --strict"
"$REPO/scripts/checkpatch.sh" || die "checkpatch found problems"

step "CI definition"
"$REPO/scripts/check-ci.sh"

[[ $run_matrix == y ]] || exit 0

step "matrix"
"$REPO/scripts/matrix.sh"

step "mutants"
"$REPO/scripts/mutants.sh" "$REPO"/kunit/mutants/*/

# The matrix's closing count, last: "kunit: N passed, N failed, N skipped".
tail -n 1 "$RESULTS/$PKG/report.md"
