#!/usr/bin/env bash
# Run the tiny cells of ci/matrix.json ("tiny"): uniprocessor kernels with
# a part of the scheduler compiled out (CONFIG_SCHED_CLASS_DL=n, ...), booted with
# kunit.py like the other cells, at every step of the series that has the
# cell's Kconfig option ("needs"), and judged against the cell's own
# expected results ("expected": results.txt lines), not against the
# baseline, which cannot build them.
#
# Usage: scripts/tiny-cells.sh [--cells A,B] [--steps S1,S2] [--reuse]
#   --cells  tiny cells to run (default: all)
#   --steps  steps to consider (default: all; a step without the cell's
#            option is recorded as not applicable)
#   --reuse  keep a GREEN result made at the step's commit with the
#            current inputs instead of running it again
#
# Each run is scripts/run-cell.sh STEP CELL (results in
# $RESULTS/$PKG/STEP/CELL/, as for any cell); then scripts/tiny.py writes
# results.txt and a one-line verdict there. A step without the option gets
# only meta (with na=) and verdict. Exit status: 0 when every applicable
# step is GREEN in every tiny cell, 1 when one is RED, 2 on a harness
# failure, 128+N when stopped by signal N.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

cells='' steps='' reuse=n
while [[ $# -gt 0 ]]; do
	case $1 in
	--cells) cells=${2:?--cells needs a list}; shift 2 ;;
	--steps) steps=${2:?--steps needs a list}; shift 2 ;;
	--reuse) reuse=y; shift ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
lock_work

mapfile -t cell_list < <(matrix tiny "$cells")
[[ ${#cell_list[@]} -gt 0 ]] || die "no tiny cells in ci/matrix.json"
select_steps "$steps"
step_list=("${STEP_LIST[@]}")

# fresh STEP CELL SHA: a GREEN verdict at SHA, made with the current inputs.
fresh() {
	local out=$RESULTS/$PKG/$1/$2
	grep -q ': GREEN: ' "$out/verdict" 2>/dev/null && grep -qx "sha=$3" "$out/meta" &&
		cmp -s <(matrix inputs cell "$2" | sed 's/^/input_/') <(grep '^input_' "$out/meta")
}

rc=0
for c in "${cell_list[@]}"; do
	needs=$(matrix cell "$c" needs)
	expected=$REPO/$(matrix cell "$c" expected)
	[[ -f $expected ]] || die "tiny cell $c: no expected results $expected"
	for s in "${step_list[@]}"; do
		sha=$(step_sha "$s")
		out=$RESULTS/$PKG/$s/$c
		if ! has_option "$sha" "$needs"; then
			rm -rf "$out"
			mkdir -p "$out"
			printf 'step=%s\nsha=%s\ncell=%s\nna=no config %s\ncomplete=y\n' \
				"$s" "$sha" "$c" "$needs" >"$out/meta"
			printf '%s %s: n/a: the step has no config %s\n' "$s" "$c" "$needs" |
				tee "$out/verdict"
			continue
		fi
		if [[ $reuse == y ]] && fresh "$s" "$c" "$sha"; then
			printf '%s %s: fresh GREEN result kept\n' "$s" "$c"
			continue
		fi
		cell_rc=0
		run "$REPO/scripts/run-cell.sh" "$s" "$c" || cell_rc=$?
		[[ $cell_rc -le 1 ]] || { rc=2; note "$s $c: run-cell.sh failed (exit $cell_rc)"; continue; }
		judge_rc=0
		run python3 "$REPO/scripts/tiny.py" judge --tree "$TREE" --dir "$out" \
			--expected "$expected" --sha "$sha" || judge_rc=$?
		[[ $judge_rc -le 1 ]] || { rc=2; note "$s $c: tiny.py could not judge (exit $judge_rc)"; continue; }
		[[ $judge_rc -eq 0 || $rc -eq 2 ]] || rc=1
	done
done
exit "$rc"
