#!/usr/bin/env bash
# The test command (.ci/run runs exactly this): set-up, the tooling's own
# unit tests, shellcheck, checkpatch --strict on the series and kunit/,
# the CI definition check, the matrix (scripts/matrix.sh, with the tiny
# cells of scripts/tiny-cells.sh), then the
# mutants (scripts/mutants.sh): every suite must go red when the code it
# guards is broken (with every mutant, also those of the tiny cells,
# mutants.sh --tiny).
#
# It keeps to a deadline (SCHED_TINIFY_BUDGET minutes after it starts,
# default 75: CI stops a run at 90). After the static checks it runs items
# one at a time in the order of what they prove per minute (the baseline
# and the last step in arm-up and x86_64-smp, the tiny cells arm-tiny and
# x86_64-nort at the last step, ...: scripts/budget.py has the list),
# measuring as it goes: scripts/budget.py takes the next item whose
# estimate ends before the deadline and leaves those that would not; an
# item still running at the deadline is stopped and left too. Then
# scripts/matrix.sh --judge writes the report of what ran, naming what was
# left to the main job, which runs everything.
#
# Usage: scripts/test.sh [--no-matrix | --full]
#   --no-matrix  stop after the static checks (for a quick local run)
#   --full       no deadline: the main job (every step everywhere, 10
#                repeats a variant, the debug cells at every step) and every
#                mutant
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
# Seconds kept after the last item for the report of what ran.
JUDGE=180
# Boots per variant of every cell at the last step (scripts/repeat.sh).
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

report_json=$RESULTS/$PKG/report.json
mkdir -p "$RESULTS/$PKG"
if [[ $mode == full ]]; then
	step "matrix: every step in every cell, and the upstream-form tests"
	rc=0
	run "$REPO/scripts/matrix.sh" || rc=$?
	[[ $rc -eq 0 ]] || fail_with "$rc" "the matrix is red or did not run (exit $rc): see $RESULTS/$PKG/report.md"
	step "mutants"
	run "$REPO/scripts/mutants.sh" --last-only "$REPO"/kunit/mutants/*/
	for c in $(matrix tiny); do
		step "tiny-cell mutants in $c"
		run "$REPO/scripts/mutants.sh" --last-only --tiny "$c" "$REPO"/kunit/mutants/*/
	done
	step "done in $SECONDS s"
	python3 "$REPO/scripts/results.py" summary "$report_json"
	exit 0
fi

# The deadline loop. Items end JUDGE seconds before the deadline: the
# report of what ran is written after them.
plan=$RESULTS/$PKG/plan.json
deadline=$((budget * 60 - JUDGE))
rm -f "$plan"
mapfile -t steps < <(step_names)
last=${steps[-1]}
red_items=()
next_item() {
	python3 "$REPO/scripts/budget.py" next "$plan" --elapsed "$SECONDS" \
		--deadline "$deadline" --repeat "$REPEAT" --steps-file "$STEPS_FILE" \
		--tree "$TREE" --results "$RESULTS/$PKG" --build-root "$BUILD"
}
while true; do
	out=$(next_item) || die "budget.py could not choose the next item (see above)"
	[[ -n $out ]] || break
	mapfile -t item <<<"$out"
	[[ ${#item[@]} -eq 2 ]] || die "budget.py gave a bad item: $out"
	read -r kind a b <<<"${item[0]}"
	step "${item[1]}"
	case $kind in
	cells) cmd=("$REPO/scripts/matrix.sh" --cells "$a" --steps "$b" --reuse) ;;
	tiny) cmd=("$REPO/scripts/tiny-cells.sh" --cells "$a" --steps "$b" --reuse) ;;
	builds)
		cmd=("$REPO/scripts/matrix.sh" --cells none --builds all --steps "$b" --reuse)
		[[ $a == full ]] || cmd+=(--builds-sched-only)
		;;
	repeat) cmd=("$REPO/scripts/repeat.sh" --step "$last" --count "$a") ;;
	debug) cmd=("$REPO/scripts/debug-cells.sh" --steps "$a" --reuse) ;;
	upstream) cmd=("$REPO/scripts/upstream-kunit.sh") ;;
	mutants)
		cmd=("$REPO/scripts/mutants.sh" --last-only)
		case $a in
		subset) cmd+=("$REPO/kunit/mutants/ci-subset") ;;
		all) cmd+=("$REPO"/kunit/mutants/*/) ;;
		*) cmd+=(--tiny "$a" "$REPO"/kunit/mutants/*/) ;;
		esac
		;;
	*) die "budget.py gave an unknown item: ${item[0]}" ;;
	esac
	# Stopped at the deadline (timeout exits 124): left to the main job.
	rc=0
	run timeout --kill-after="$STOP_WAIT" "$((deadline - SECONDS > 1 ? deadline - SECONDS : 1))" \
		"${cmd[@]}" || rc=$?
	case $rc in
	0) ;;
	1) red_items+=("${item[1]}") ;;
	124)
		note "stopped at the deadline: ${item[1]}"
		python3 "$REPO/scripts/budget.py" stopped "$plan" --elapsed "$SECONDS"
		;;
	*) die "${item[1]}: exit $rc (see $RESULTS/$PKG/matrix.log)" ;;
	esac
done
step "the report of what ran ($plan), at $SECONDS s"
left=$(python3 "$REPO/scripts/budget.py" left "$plan")
[[ -z $left ]] || printf 'left to the main job:\n%s\n' "$left"
[[ ${#red_items[@]} -eq 0 ]] || note "red: $(IFS=';'; echo "${red_items[*]}")"
rc=0
run "$REPO/scripts/matrix.sh" --judge "$plan" || rc=$?
[[ $rc -le 1 ]] || exit "$rc"
[[ $rc -eq 0 && ${#red_items[@]} -eq 0 ]] || exit 1
