#!/usr/bin/env bash
# The main job: install what is missing, prepare the kernel tree and its
# steps, build and run every step of the series in every cell (and, with
# no option, the upstream-form tests, scripts/upstream-kunit.sh, the peer
# check, scripts/peer-check.sh, and the tiny cells, scripts/tiny-cells.sh),
# and write the reviewer report to $RESULTS/$PKG/report.md (report.json
# and junit/<cell>.xml beside it).
#
# Usage: scripts/matrix.sh [--cells A,B|none] [--builds A,B|all|none]
#                          [--steps S1,S2] [--judge PLAN] [--reuse]
#                          [--builds-sched-only] [--tiny] [--repeat N]
#                          [--debug S1,S2|all|none] [--same-as DIR]
#                          [--prepare-only]
#   --cells         cells of ci/matrix.json to run (default: all; "none"
#                   for the build-only configurations alone)
#   --builds        build-only configurations of ci/matrix.json to build
#                   with W=1 (scripts/build-only.sh), a list, "all" or
#                   "none"; default: all without --cells or with --cells
#                   none, none with other cells
#   --steps         steps to run, by name from the steps file (default: all;
#                   00-baseline is what every step is compared with)
#   --judge PLAN    run nothing: judge the results PLAN names and write the
#                   report, naming the rest as left to the main job (the
#                   test command's plan, scripts/budget.py: {"cells":
#                   {CELL: [STEP...]}, "builds": {...}, "sched_only": {...},
#                   "tiny": {CELL: [STEP...]}, "repeat": N, "debug": [...]})
#   --reuse         keep a result that is complete and fresh (same commit,
#                   same inputs) instead of running it again: to go on
#                   after a run was stopped
#   --builds-sched-only
#                   build kernel/sched/ only in the build-only
#                   configurations (build-only.sh --sched-only: the test
#                   command's baseline, what later warnings are compared with)
#   --tiny          also run the tiny cells (scripts/tiny-cells.sh) at the
#                   steps run, and judge them (the main job always does)
#   --repeat N      then boot every cell of the run N more times per
#                   variant at the run's last step (scripts/repeat.sh:
#                   flakes; the main job: 10, or what is given)
#   --debug STEPS   then run the debug cells (scripts/debug-cells.sh) at
#                   these steps ("all": every step, the main job's default)
#   --same-as DIR   judge every cell against the plain cell's results in
#                   DIR at the same step too (what debug-cells.sh asks)
#   --prepare-only  install packages and prepare the tree, run nothing
#
# One run at a time per work folder (a second one stops at once, naming
# the first); one Ctrl-C or SIGTERM stops the run within seconds and marks
# the cell that was running as incomplete. Prints a line per cell as it
# starts and ends, and a verdict line at the end.
#
# Exit status 1 when the run is red, 2 when it could not be run or judged,
# 75 when another run holds the work folder, 128+N when stopped by signal
# N; 0 only if every step ran in every cell, nothing failed or
# crashed, every step's results are identical to the baseline's, every
# build-only configuration built with no W=1 warning, in kernel/sched/ or
# in a file the series touches, that the baseline does not have, and the last step's text is at most 0.1%
# larger than the baseline's in every cell.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

cells='' builds='' steps='' plan='' reuse=n prepare_only=n tiny=n sched_only=''
repeat='' debug='' same_as=''
while [[ $# -gt 0 ]]; do
	case $1 in
	--cells) cells=${2:?--cells needs a list}; shift 2 ;;
	--builds) builds=${2:?--builds needs a list}; shift 2 ;;
	--steps) steps=${2:?--steps needs a list}; shift 2 ;;
	--judge) plan=$(realpath "${2:?--judge needs a plan}"); shift 2 ;;
	--reuse) reuse=y; shift ;;
	--tiny) tiny=y; shift ;;
	--builds-sched-only) sched_only=--sched-only; shift ;;
	--repeat) repeat=${2:?--repeat needs a number}; shift 2 ;;
	--debug) debug=${2:?--debug needs steps, all or none}; shift 2 ;;
	--same-as) same_as=$(realpath -m "${2:?--same-as needs a folder}"); shift 2 ;;
	--prepare-only) prepare_only=y; shift ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
[[ -z $plan || -f $plan ]] || die "no plan file $plan"
[[ -z $repeat || $repeat =~ ^[0-9]+$ ]] || die "--repeat needs a number, not '$repeat'"
lock_work

start=$(date +%s)
if [[ -z $plan ]]; then
	run "$REPO/scripts/deps.sh"
	run "$REPO/scripts/prepare-tree.sh"
fi
[[ $prepare_only == y ]] && exit 0

cell_list=()
[[ $cells == none ]] || mapfile -t cell_list < <(matrix cells "$cells")
[[ $cells == none || ${#cell_list[@]} -gt 0 ]] || die "no cells selected"
build_list=()
# Without --cells, or with --cells none, every build-only configuration.
[[ -n $builds ]] || { [[ -n $cells && $cells != none ]] && builds=none || builds=all; }
[[ ${#cell_list[@]} -gt 0 || $builds != none ]] || die "nothing to run: no cell and no build-only configuration"
case $builds in
none) ;;
all) mapfile -t build_list < <(matrix builds) ;;
*) mapfile -t build_list < <(matrix builds "$builds") ;;
esac
select_steps "$steps"
step_list=("${STEP_LIST[@]}")

cells_arg=$(IFS=,; echo "${cell_list[*]}")
# The main job runs the tiny cells, the repeats and the debug cells too.
if [[ -z $cells && -z $steps && -z $plan ]]; then
	tiny=y
	repeat=${repeat:-10}
	debug=${debug:-all}
fi
# A plan names the repeats, debug cells and tiny cells that ran.
if [[ -n $plan ]]; then
	repeat=$(python3 "$REPO/scripts/budget.py" get "$plan" repeat)
	debug=$(python3 "$REPO/scripts/budget.py" get "$plan" debug)
	[[ -z $(python3 "$REPO/scripts/budget.py" get "$plan" tiny) ]] || tiny=y
fi
[[ $repeat != 0 ]] || repeat=''
[[ $debug != none ]] || debug=''
[[ $debug != all ]] || debug=$(IFS=,; echo "${step_list[*]}")
repeat_arg=''
[[ -z $repeat || ${#cell_list[@]} -eq 0 ]] || repeat_arg=$cells_arg
# The debug cells of the run's cells only: each is judged against its cell.
debug_arg=''
if [[ -n $debug ]]; then
	for d in $(matrix debug); do
		[[ " ${cell_list[*]} " != *" $(matrix debugcell "$d" cell) "* ]] || debug_arg+="${debug_arg:+,}$d"
	done
fi
tiny_arg=''
[[ $tiny == n ]] || tiny_arg=$(matrix tiny | paste -sd,)
# judge [report.py options]: report.py on this run's steps and results.
judge() {
	report "$(IFS=,; echo "${step_list[*]}")" "$RESULTS/$PKG" "$(series_dir)" \
		"$RESULTS/$PKG/report.md" --cells "${cells_arg:-none}" \
		--builds "$(IFS=,; echo "${build_list[*]}")" ${plan:+--plan "$plan"} \
		${tiny_arg:+--tiny "$tiny_arg"} ${same_as:+--same-as "$same_as"} \
		${repeat_arg:+--repeat-cells "$repeat_arg"} ${debug_arg:+--debug-cells "$debug_arg"} "$@"
}

# The work, as "STEP NAME script" lines (none when judging a plan).
todo=()
for s in "${step_list[@]}"; do
	for c in "${cell_list[@]}"; do todo+=("$s $c run-cell.sh"); done
	for b in "${build_list[@]}"; do todo+=("$s $b build-only.sh $sched_only"); done
done
[[ -z $plan ]] || todo=()

# This run's messages of the scripts it starts.
mkdir -p "$RESULTS/$PKG"
: >"$RESULTS/$PKG/matrix.log"
i=0
for job in "${todo[@]}"; do
	read -r s name script opt <<<"$job"
	i=$((i + 1))
	tag="[$i/${#todo[@]}] $s $name${opt:+ ($opt)}"
	# A build kept must have been built as wide as this run asks.
	same_scope=y
	if [[ $script == build-only.sh ]]; then
		scope=$(sed -n 's/^scope=//p' "$RESULTS/$PKG/$s/$name/meta" 2>/dev/null) || true
		[[ ($scope == kernel/sched && $opt == --sched-only) ||
			($scope != kernel/sched && -z $opt) ]] || same_scope=n
	fi
	if [[ $reuse == y && $same_scope == y ]] &&
		report_py "$RESULTS/$PKG" "$(series_dir)" --fresh "$s,$name" >/dev/null 2>&1; then
		printf '%s: fresh result kept\n' "$tag"
		continue
	fi
	printf '%s: started\n' "$tag"
	rc=0
	run "$REPO/scripts/$script" ${opt:+"$opt"} "$s" "$name" 2>>"$RESULTS/$PKG/matrix.log" || rc=$?
	line=$(report_py "$RESULTS/$PKG" "$(series_dir)" --progress "$s,$name" \
		${same_as:+--same-as "$same_as"} 2>&1) ||
		line="no result to describe"
	# A harness failure: say what the script said last.
	[[ $rc -lt 2 ]] || line+=" (exit $rc: $(tail -n 1 "$RESULTS/$PKG/matrix.log"))"
	printf '%s: %s\n' "$tag" "$line"
done

# The checks this run runs beside the cells: their results must be there.
expect=''
# The main job (every cell, every step) also runs the upstream-form tests
# of <series>/kunit/ on the pristine tree: scripts/upstream-kunit.sh.
if [[ -z $cells && -z $steps && -z $plan && -s $WORK/$PKG/upstream-kunit ]]; then
	printf '[upstream] the upstream-form tests on the pristine tree: started\n'
	# A result left from an earlier run must not stand in for this one.
	rm -rf "$RESULTS/$PKG/upstream-kunit"
	expect+=upstream,
	up_rc=0
	run "$REPO/scripts/upstream-kunit.sh" >/dev/null 2>>"$RESULTS/$PKG/matrix.log" || up_rc=$?
	printf '[upstream] %s\n' "$(cat "$RESULTS/$PKG/upstream-kunit/summary" 2>/dev/null ||
		echo "no summary (exit $up_rc)")"
fi

# Output of the scripts below is prefixed through a process substitution,
# not a pipe: run() must start them from this shell, or a signal would
# wait for the pipeline to end. "wait $!" then waits for the prefixing
# itself, so that its last lines come before anything printed after.
#
# The main job also runs the peer check (chrt's requests in a tiny arm
# kernel) at the baseline and the last step: scripts/peer-check.sh.
if [[ -z $cells && -z $steps && -z $plan ]]; then
	printf '[peer] the requests of chrt in a tiny arm kernel: started\n'
	rm -rf "$RESULTS/$PKG/peer"
	expect+=peer,
	peer_rc=0
	run "$REPO/scripts/peer-check.sh" 2>>"$RESULTS/$PKG/matrix.log" \
		> >(sed -u 's/^/[peer] /') || peer_rc=$?
	wait "$!" 2>/dev/null || true
	[[ $peer_rc -le 1 ]] || note "peer-check.sh failed (exit $peer_rc): see $RESULTS/$PKG/matrix.log"
fi

# The tiny cells, at the steps of this run that have their option.
tiny_steps=$(IFS=,; echo "${step_list[*]}")
if [[ -z $plan && -n $tiny_arg ]]; then
	printf '[tiny] %s: started\n' "$tiny_arg"
	tiny_opts=(--cells "$tiny_arg")
	[[ $reuse == n ]] || tiny_opts+=(--reuse)
	tiny_rc=0
	run "$REPO/scripts/tiny-cells.sh" "${tiny_opts[@]}" \
		--steps "$tiny_steps" 2>>"$RESULTS/$PKG/matrix.log" > >(sed -u 's/^/[tiny] /') || tiny_rc=$?
	wait "$!" 2>/dev/null || true
	[[ $tiny_rc -le 1 ]] || note "tiny-cells.sh failed (exit $tiny_rc): see $RESULTS/$PKG/matrix.log"
fi

# Repeated boots of every cell of the run at its last step: flakes.
if [[ -z $plan && -n $repeat_arg ]]; then
	printf '[repeat] %s, %s boots per variant at %s: started\n' "$repeat_arg" "$repeat" "${step_list[-1]}"
	rep_rc=0
	run "$REPO/scripts/repeat.sh" --cells "$repeat_arg" --step "${step_list[-1]}" \
		--count "$repeat" 2>>"$RESULTS/$PKG/matrix.log" > >(sed -u 's/^/[repeat] /') || rep_rc=$?
	wait "$!" 2>/dev/null || true
	[[ $rep_rc -le 1 ]] || { note "repeat.sh failed (exit $rep_rc): see $RESULTS/$PKG/matrix.log"; harness=y; }
fi

# The debug cells (sanitizers, kmemleak) at the steps asked for.
if [[ -z $plan && -n $debug_arg ]]; then
	printf '[debug] %s at %s: started\n' "$debug_arg" "$debug"
	dbg_opts=(--cells "$debug_arg" --steps "$debug")
	[[ $reuse == n ]] || dbg_opts+=(--reuse)
	dbg_rc=0
	run "$REPO/scripts/debug-cells.sh" "${dbg_opts[@]}" 2>>"$RESULTS/$PKG/matrix.log" \
		> >(sed -u 's/^/[debug] /') || dbg_rc=$?
	wait "$!" 2>/dev/null || true
	[[ $dbg_rc -le 1 ]] || { note "debug-cells.sh failed (exit $dbg_rc): see $RESULTS/$PKG/matrix.log"; harness=y; }
fi

rc=0
harness=${harness:-n}
# The size limit compares with the baseline; a debug cell's sizes are not
# the product's.
size_opt=(--size-limit 0.1)
[[ -z $same_as ]] || size_opt=()
judge "${size_opt[@]}" ${expect:+--expect "${expect%,}"} >/dev/null || rc=$?
# A repeat or debug run that could not run is a harness failure, whatever
# the report found of it.
[[ $harness == n || $rc -ge 2 ]] || rc=2
[[ $rc -le 1 ]] || { note "report.py could not judge the run (exit $rc)"; exit 2; }
note "report: $RESULTS/$PKG/report.md; total $(($(date +%s) - start)) s"
python3 "$REPO/scripts/results.py" summary "$RESULTS/$PKG/report.json"
exit "$rc"
