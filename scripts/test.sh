#!/usr/bin/env bash
# The test command (.ci/run runs exactly this): set-up, the tooling's own
# unit tests, shellcheck, checkpatch --strict on the series and kunit/,
# the CI definition check, the matrix (scripts/matrix.sh, with the tiny
# cells of scripts/tiny-cells.sh), then the
# mutants (scripts/mutants.sh): every suite must go red when the code it
# guards is broken (with every mutant, also those of the tiny cells,
# mutants.sh --tiny).
#
# The plan also boots every cell again at the last step
# (SCHED_TINIFY_REPEAT times per variant, default 5: scripts/repeat.sh,
# flakes) and, if they fit, runs the debug cells (sanitizers, kmemleak:
# scripts/debug-cells.sh) at the last step.
#
# It keeps to a time budget (SCHED_TINIFY_BUDGET minutes, default 75: CI
# stops a run at 90). First what every plan needs, which also measures the
# machine (cold build folders and ccache cost most there): the baseline in
# every cell, the build-only configurations' baseline (kernel/sched/ only,
# what later W=1 warnings are compared with) and the tiny cells at the last
# step. scripts/budget.py then plans the rest from those measured build
# times and the share of objects each step rebuilds: all of it if it fits,
# else, in this order, what fits of every cell at the last step, every step
# in x86_64-smp and arm-up, the mutants of kunit/mutants/ci-subset, the
# upstream-form tests, ... (budget.py's header has the list). The report
# names what was left to the main job, which runs everything.
#
# Usage: scripts/test.sh [--no-matrix | --full]
#   --no-matrix  stop after the static checks (for a quick local run)
#   --full       no budget: the main job (every step everywhere, 10 repeats
#                a variant, the debug cells at every step) and every mutant
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
# Boots per variant of every cell at the last step (scripts/repeat.sh).
REPEAT=${SCHED_TINIFY_REPEAT:-5}
[[ $REPEAT =~ ^[0-9]+$ ]] || die "SCHED_TINIFY_REPEAT must be a number, not '$REPEAT'"
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

report_json=$RESULTS/$PKG/report.json
plan=$RESULTS/$PKG/plan.json
mkdir -p "$RESULTS/$PKG"
if [[ $mode == full ]]; then
	step "matrix: every step in every cell, and the upstream-form tests"
	run_matrix
	mutants=("$REPO"/kunit/mutants/*/)
	tiny_mutants=y
else
	mapfile -t steps < <(step_names)
	last=${steps[-1]}
	mapfile -t tcells < <(matrix tiny)
	[[ ${#tcells[@]} -gt 0 ]] || die "no tiny cells in ci/matrix.json"
	# The steps a tiny cell can run at (those with its option; at such a
	# step, scripts/tiny-cells.sh records the cells without theirs as n/a).
	tsteps=()
	for s in "${steps[@]}"; do
		for c in "${tcells[@]}"; do
			if has_option "$(step_sha "$s")" "$(matrix cell "$c" needs)"; then
				tsteps+=("$s")
				break
			fi
		done
	done
	step "matrix: the baseline in every cell; the build-only configurations' baseline, kernel/sched/ only"
	run_matrix --steps "${steps[0]}" --builds all --builds-sched-only
	if [[ " ${tsteps[*]} " == *" $last "* ]]; then
		step "the tiny cells at the last step"
		run "$REPO/scripts/tiny-cells.sh" --steps "$last" || fail_with $? "a tiny cell is red or did not run"
	fi
	# Every mutant once; a tiny-cell one (# tiny: OPTION) once per tiny
	# cell whose option it is (all of them, or those its # tiny cells: line
	# names), and each tiny cell's run composes its own series (about 3
	# mutants' time).
	n_all=$(grep -L '^# tiny: ' "$REPO"/kunit/mutants/*/*.sed | wc -l) || true
	for c in "${tcells[@]}"; do
		needs=$(matrix cell "$c" needs)
		n=$(grep -l -x "# tiny: $needs" "$REPO"/kunit/mutants/*/*.sed |
			xargs -r grep -L -E "^# tiny cells: " | wc -l) || true
		m=$(grep -l -x "# tiny: $needs" "$REPO"/kunit/mutants/*/*.sed |
			xargs -r grep -l -E "^# tiny cells: (.* )?$c( |\$)" | wc -l) || true
		n_all=$((n_all + n + m + 3))
	done
	n_subset=$(grep -c '^[^#]' "$REPO/kunit/mutants/ci-subset")
	# The repeats' boots per unit of count: an SMP cell boots as it is,
	# with 2 and with 8 CPUs and loaded, a UP cell as it is and loaded.
	boots=0
	for c in $(matrix cells); do
		if [[ $(matrix cell "$c" smp) == y ]]; then boots=$((boots + 4)); else boots=$((boots + 2)); fi
	done
	debug_folders=()
	for d in $(matrix debug); do debug_folders+=("$d=$BUILD/$d"); done
	step "budget: what fits in $budget min"
	python3 "$REPO/scripts/budget.py" plan --elapsed "$SECONDS" --budget "$((budget * 60))" \
		--steps-file "$STEPS_FILE" --tree "$TREE" --results "$RESULTS/$PKG" \
		--build-root "$BUILD" --cells "$(matrix cells | paste -sd,)" \
		--builds "$(matrix builds | paste -sd,)" --tiny "$(IFS=,; echo "${tcells[*]}")" \
		--tiny-steps "$(IFS=,; echo "${tsteps[*]}")" --full-cells x86_64-smp,arm-up \
		--upstream-cell arm-up --mutants "$n_all" --subset "$n_subset" \
		--repeat "$REPEAT" --repeat-boots "$boots" \
		--debug "$(IFS=,; echo "${debug_folders[*]}")" --debug-results "$RESULTS/debug" >"$plan" ||
		die "budget.py could not plan"
	# What the plan leaves to the main job, in the output too.
	left=$(python3 "$REPO/scripts/budget.py" get "$plan" left)
	[[ -z $left ]] || note "left to the main job: $left"
	if [[ $(python3 "$REPO/scripts/budget.py" get "$plan" upstream) == True ]]; then
		step "the upstream-form tests (patches/kunit/) on the pristine tree"
		run "$REPO/scripts/upstream-kunit.sh" || fail_with $? "the upstream-form tests are red or did not run"
	fi
	step "matrix: the rest, as planned ($plan)"
	run_matrix --plan "$plan" --reuse --tiny
	case $(python3 "$REPO/scripts/budget.py" get "$plan" mutants) in
	all) mutants=("$REPO"/kunit/mutants/*/) tiny_mutants=y ;;
	subset) mutants=("$REPO/kunit/mutants/ci-subset") ;;
	*) mutants=() ;;
	esac
fi

if [[ ${#mutants[@]} -gt 0 ]]; then
	step "mutants (${mutants[*]#"$REPO"/})"
	run "$REPO/scripts/mutants.sh" --last-only "${mutants[@]}"
else
	note "no mutant fits the budget: scripts/mutants.sh kunit/mutants/*/ runs them"
fi
if [[ $tiny_mutants == y ]]; then
	# The mutants that only a tiny cell's suites guard (# tiny: lines).
	mapfile -t tcells < <(matrix tiny)
	[[ ${#tcells[@]} -gt 0 ]] || die "no tiny cells in ci/matrix.json"
	for c in "${tcells[@]}"; do
		step "tiny-cell mutants in $c"
		run "$REPO/scripts/mutants.sh" --last-only --tiny "$c" "${mutants[@]}"
	done
fi

step "done in $SECONDS s"
python3 "$REPO/scripts/results.py" summary "$report_json"
