#!/usr/bin/env bash
# The test command (.ci/run runs exactly this): set-up, the tooling's own
# unit tests, shellcheck, checkpatch --strict on the series and kunit/,
# the CI definition check, the matrix (scripts/matrix.sh, with the tiny
# cells of scripts/tiny-cells.sh), then the
# mutants (scripts/mutants.sh): every suite must go red when the code it
# guards is broken (with every mutant, also those of the tiny cells,
# mutants.sh --tiny).
#
# It keeps to a time budget (SCHED_TINIFY_BUDGET minutes, default 75: CI
# stops a run at 90). The baseline runs first in every cell and build-only
# configuration: that is what cold build folders and a cold ccache cost,
# and it is measured. scripts/budget.py then plans the rest: all of it if
# the estimate fits, else every step in x86_64-smp and arm-up, the
# baseline and the last step elsewhere, and the mutants of
# kunit/mutants/ci-subset. The report names what was left to the main
# job, which runs everything.
#
# Usage: scripts/test.sh [--no-matrix | --full]
#   --no-matrix  stop after the static checks (for a quick local run)
#   --full       no budget: every step everywhere and every mutant
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

mode=budget tiny_mutants=n
case ${1:-} in
'') ;;
--no-matrix) mode=none ;;
--full) mode=full ;;
*) die "usage: ${0##*/} [--no-matrix | --full]" ;;
esac
budget=${SCHED_TINIFY_BUDGET:-75}
[[ $budget =~ ^[0-9]+$ ]] || die "SCHED_TINIFY_BUDGET must be minutes, not '$budget'"
lock_work

step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }

# matrix ARGS...: scripts/matrix.sh; a red run stops here with exit 1,
# anything else (harness failure, lock, signal) with matrix.sh's status.
run_matrix() {
	local rc=0
	run "$REPO/scripts/matrix.sh" "$@" || rc=$?
	[[ $rc -eq 0 ]] && return 0
	note "the matrix is red or did not run (exit $rc): see $RESULTS/$PKG/report.md"
	exit "$rc"
}

step "set-up: packages and kernel tree"
run "$REPO/scripts/deps.sh"
run "$REPO/scripts/prepare-tree.sh"

step "unit tests of the tooling"
SCHED_TINIFY_TREE=$TREE run python3 -m unittest discover -s "$REPO/scripts/tests" \
	-t "$REPO/scripts" || die "tooling unit tests failed"

step "shellcheck"
# From the repository: the scripts' "shellcheck source=" paths start there.
(cd "$REPO" && shellcheck -x scripts/*.sh .ci/run) || die "shellcheck found problems"
echo "shellcheck: clean"

step "checkpatch --strict"
run "$REPO/scripts/checkpatch.sh" || die "checkpatch found problems"

step "CI definition"
"$REPO/scripts/check-ci.sh"

[[ $mode != none ]] || exit 0

report_json=$RESULTS/$PKG/report.json
plan=$RESULTS/$PKG/plan.json
mkdir -p "$RESULTS/$PKG"
if [[ $mode == full ]]; then
	step "matrix: every step in every cell, and the upstream-form tests"
	run_matrix
	mutants=("$REPO"/kunit/mutants/*/)
	tiny_mutants=y
else
	step "matrix: the baseline in every cell and build-only configuration"
	run_matrix --steps 00-baseline --builds all
	step "the upstream-form tests (patches/kunit/) on the pristine tree"
	run "$REPO/scripts/upstream-kunit.sh" || die "the upstream-form tests are red or did not run"
	step "the tiny cells, at every step that has their option"
	run "$REPO/scripts/tiny-cells.sh" || die "a tiny cell is red or did not run"
	mapfile -t steps < <(step_names)
	# Every mutant once; a tiny-cell one (# tiny:) once per tiny cell, and
	# each tiny cell's run composes its own series (about 3 mutants' time).
	mapfile -t tcells < <(matrix tiny)
	[[ ${#tcells[@]} -gt 0 ]] || die "no tiny cells in ci/matrix.json"
	n_plain=$(grep -L '^# tiny: ' "$REPO"/kunit/mutants/*/*.sed | wc -l) || true
	n_tiny=$(grep -l '^# tiny: ' "$REPO"/kunit/mutants/*/*.sed | wc -l) || true
	n_all=$((n_plain + ${#tcells[@]} * (n_tiny + 3)))
	n_subset=$(grep -c '^[^#]' "$REPO/kunit/mutants/ci-subset")
	python3 "$REPO/scripts/budget.py" plan --elapsed "$SECONDS" --budget "$((budget * 60))" \
		--steps "$(IFS=,; echo "${steps[*]}")" --cells "$(matrix cells | paste -sd,)" \
		--builds "$(matrix builds | paste -sd,)" --full-cells x86_64-smp,arm-up \
		--mutants "$n_all" --subset "$n_subset" >"$plan" || die "budget.py could not plan"
	# What the plan leaves to the main job, in the output too.
	left=$(python3 "$REPO/scripts/budget.py" get "$plan" left)
	[[ -z $left ]] || note "left to the main job: $left"
	step "matrix: the rest, as planned ($plan)"
	run_matrix --plan "$plan" --reuse --tiny
	if [[ $(python3 "$REPO/scripts/budget.py" get "$plan" mutants) == all ]]; then
		mutants=("$REPO"/kunit/mutants/*/)
		tiny_mutants=y
	else
		mutants=("$REPO/kunit/mutants/ci-subset")
	fi
fi

step "mutants (${mutants[*]#"$REPO"/})"
run "$REPO/scripts/mutants.sh" "${mutants[@]}"
if [[ $tiny_mutants == y ]]; then
	# The mutants that only a tiny cell's suites guard (# tiny: lines).
	mapfile -t tcells < <(matrix tiny)
	[[ ${#tcells[@]} -gt 0 ]] || die "no tiny cells in ci/matrix.json"
	for c in "${tcells[@]}"; do
		step "tiny-cell mutants in $c"
		run "$REPO/scripts/mutants.sh" --tiny "$c" "${mutants[@]}"
	done
fi

step "done in $SECONDS s"
python3 "$REPO/scripts/results.py" summary "$report_json"
