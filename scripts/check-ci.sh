#!/usr/bin/env bash
# Validate the CI definition: YAML syntax (yamllint), the matrix file
# (scripts/matrix.py check), and that the workflow takes its cells from
# ci/matrix.json, runs the same commands as the local ones (the static
# part of the test command, one cell per job, the build-only
# configurations without a cell, the upstream-form tests, the tiny cells,
# the repeats, the debug cells and the mutants of every cell),
# puts the report
# into the job summary and uploads the JUnit files.
#
# Usage: scripts/check-ci.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

wf=$REPO/.github/workflows/kunit-matrix.yml
command -v yamllint >/dev/null || die "yamllint is missing (scripts/deps.sh installs it)"
matrix check || die "ci/matrix.json is not valid"
yamllint -d '{extends: default, rules: {line-length: {max: 100}, truthy: {check-keys: false}, document-start: disable}}' "$wf" ||
	die "$wf: YAML check failed"
# shellcheck disable=SC2016 # literal $CELL, as the workflow spells it
for want in 'scripts/matrix.py github' 'fromJSON(needs.cells.outputs.cells)' \
	'scripts/test.sh --no-matrix' 'scripts/matrix.sh --cells "$CELL"' \
	'scripts/matrix.sh --cells none --builds all' 'scripts/upstream-kunit.sh' \
	'scripts/tiny-cells.sh' 'scripts/matrix.sh --cells "$CELL" --repeat' \
	'scripts/debug-cells.sh' 'scripts/mutants.sh --cells "$CELL" kunit/mutants/*/' \
	'scripts/mutants.sh --tiny' \
	'GITHUB_STEP_SUMMARY' \
	'results/*/junit/*.xml'; do
	grep -qF "$want" "$wf" || die "$wf does not contain: $want"
done
# The build-only job builds; it must not boot a cell too.
! grep -E 'scripts/matrix.sh .*--builds' "$wf" | grep -qv -- '--cells none' ||
	die "$wf: a job with --builds also runs a cell (use --cells none)"
note "CI definition OK: $(matrix cells | wc -l) cells from ci/matrix.json"
