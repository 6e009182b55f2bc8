#!/usr/bin/env bash
# Run steps of the series in the debug cells of ci/matrix.json: a cell
# built again, in a folder of its own, with sanitizers and debug checks
# (KASAN, UBSAN, debug objects, kmemleak: kunitconfigs/debug/). A debug
# cell is red when a test fails, when its results differ from its own
# baseline's or from the plain cell's at the same step (the same cases,
# the same verdicts and skip reasons: the plain results must be there, from
# scripts/matrix.sh), when the console holds any kernel report (KASAN,
# UBSAN, ODEBUG, lockdep, WARNING, BUG), and, with kmemleak, when the
# scan that scripts/kmemleak-init.c runs after the suites reports a leak
# or does not finish. At the last step, scripts/debug-selfcheck.sh then
# proves that the cell can go red: planted bugs must each be reported.
#
# Usage: scripts/debug-cells.sh [--cells A,B] [--steps S1,S2] [--reuse]
#   --cells  debug cells of ci/matrix.json (default: all)
#   --steps  steps to run (default: every step)
#   --reuse  keep results that are complete and fresh
# Results and report: $RESULTS/debug/NAME/$PKG/ (report.md, report.json,
# STEP/CELL/ as for a plain cell). Exit status: 0 all green, 1 a debug cell
# is red, 2 it could not be run or judged, 75 the work folder is busy,
# 128+N stopped by signal N.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

names='' steps=() reuse=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--cells) names=${2:?--cells needs a list}; shift 2 ;;
	--steps) steps=(--steps "${2:?--steps needs a list}"); shift 2 ;;
	--reuse) reuse=(--reuse); shift ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
lock_work
mapfile -t debug < <(matrix debug "$names")
[[ ${#debug[@]} -gt 0 ]] || die "no debug cells selected (ci/matrix.json \"debug\")"

plain=$RESULTS/$PKG
mapfile -t all < <(step_names)
[[ ${#all[@]} -gt 0 ]] || die "no steps: run scripts/prepare-tree.sh first"
last=${all[-1]}
rc=0
for name in "${debug[@]}"; do
	cell=$(matrix debugcell "$name" cell) || exit 2
	# SCHED_TINIFY_KCONFIG_ADD, _DEBUG, _MAKE_ADD and _KMEMLEAK, for
	# run-cell.sh (matrix.py debug_env(), which report.py uses too).
	env=$(matrix debugenv "$name") || exit 2
	add='' debug_name='' make_add='' kmemleak=''
	while IFS='=' read -r key value; do
		case $key in
		SCHED_TINIFY_KCONFIG_ADD) add=$value ;;
		SCHED_TINIFY_DEBUG) debug_name=$value ;;
		SCHED_TINIFY_MAKE_ADD) make_add=$value ;;
		SCHED_TINIFY_KMEMLEAK) kmemleak=$value ;;
		*) die "matrix.py debugenv $name: unexpected $key" ;;
		esac
	done <<<"$env"
	printf '[%s] %s with %s: started\n' "$name" "$cell" "$(matrix debugcell "$name" kconfig)"
	# A verdict of an earlier run must not stand for this one.
	rm -rf "$RESULTS/debug/$name/$PKG/report.md" "$RESULTS/debug/$name/$PKG/report.json" \
		"$RESULTS/debug/$name/selfcheck"
	one=0
	SCHED_TINIFY_KCONFIG_ADD=$add SCHED_TINIFY_DEBUG=$debug_name SCHED_TINIFY_MAKE_ADD=$make_add \
		SCHED_TINIFY_KMEMLEAK=$kmemleak SCHED_TINIFY_RESULTS=$RESULTS/debug/$name \
		run "$REPO/scripts/matrix.sh" --cells "$cell" "${steps[@]}" "${reuse[@]}" \
		--same-as "$plain" || one=$?
	# The self-check, where the run reached the last step.
	if [[ $one -le 1 && (${#steps[@]} -eq 0 || ,${steps[1]}, == *,"$last",*) ]]; then
		sc=0
		run "$REPO/scripts/debug-selfcheck.sh" --cells "$name" || sc=$?
		[[ $sc -le 2 ]] || exit "$sc"
		[[ $sc -le $one ]] || one=$sc
	fi
	[[ $one -ne 0 ]] || printf '[%s] green\n' "$name"
	[[ $one -le 2 ]] || exit "$one"
	[[ $one -eq 0 ]] || printf '[%s] red or not run (exit %s): %s\n' "$name" "$one" \
		"$RESULTS/debug/$name/$PKG/report.md"
	[[ $one -le $rc ]] || rc=$one
done
exit "$rc"
