#!/usr/bin/env bash
# Validate the CI definition: YAML syntax (yamllint), the matrix file
# (scripts/matrix.py check), and that the workflow takes its cells from
# ci/matrix.json and runs the same command as the local matrix.
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
	'scripts/matrix.sh --cells "$CELL"' 'scripts/matrix.sh --cells x86_64-smp --builds all'; do
	grep -qF "$want" "$wf" || die "$wf does not contain: $want"
done
note "CI definition OK: $(matrix cells | wc -l) cells from ci/matrix.json"
