#!/usr/bin/env bash
# Validate the CI definition: YAML syntax (yamllint), the matrix file
# (against ci/matrix.schema.json), and, by parsing the workflow
# (scripts/ci_check.py), that it takes its cells from ci/matrix.json, runs
# the same commands as the local ones, puts the report into the job
# summary, uploads the JUnit files, saves the ccache on every run, has a
# timeout per job, path filters and a concurrency group.
#
# Usage: scripts/check-ci.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

wf=$REPO/.github/workflows/kunit-matrix.yml
command -v yamllint >/dev/null || die "yamllint is missing (scripts/deps.sh installs it)"
cells=$(python3 -m sched_tinify list --kinds cell) || red "ci/matrix.json is not valid"
yamllint -d '{extends: default, rules: {line-length: {max: 100}, truthy: {check-keys: false}, document-start: disable}}' "$wf" ||
	red "$wf: YAML check failed"
# What the jobs run, parsed (a comment does not count): scripts/ci_check.py.
python3 "$REPO/scripts/ci_check.py" "$wf" || red "$wf: the CI definition does not hold (see above)"
note "CI definition OK: $(wc -l <<<"$cells") cells from ci/matrix.json"
