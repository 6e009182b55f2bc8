#!/usr/bin/env bash
# Boot already built cells again and again at one step (kunit.py exec, no
# build) and count flakes: every run's normalized results are compared with
# the first run's of the same variant, per case (scripts/flakes.py).
# Variants, each booted COUNT times: the cell as it is; an SMP cell also
# with -smp 2 and -smp 8 (the cell is still what it claims, SMP: each run
# records the CPU count asked for and the one the kernel brought up); and
# the cell as it is with the host loaded (one busy loop per host CPU, so
# that QEMU's vCPUs get preempted).
#
# Usage: scripts/repeat.sh [--cells A,B] [--step S] [--count N] [--no-vary]
#   --cells    cells of ci/matrix.json (default: all)
#   --step     the step (default: the last one)
#   --count    boots per variant (default: 5)
#   --no-vary  the cell as it is only: no other CPU count, no load
#
# A cell whose build folder does not hold that step's kernel, built with
# the current inputs (the stamp scripts/run-cell.sh leaves), is first built
# and run once by scripts/run-cell.sh. Results: $RESULTS/$PKG/repeat/CELL/:
# VARIANT/NNN/ (test.log, exec.log, kunit.json, meta), summary.txt and
# summary.json. A cell is red when a case flakes (differs from the
# variant's first run), or a run fails a case, crashes, times out, prints a
# kernel report or brings up another CPU count than asked for. Exit status:
# 0 no flake and no failed run, 1 red, 2 harness failure, 75 the work folder
# is busy, 128+N stopped by signal N.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

names='' step='' count=5 vary=y
while [[ $# -gt 0 ]]; do
	case $1 in
	--cells) names=${2:?--cells needs a list}; shift 2 ;;
	--step) step=${2:?--step needs a step}; shift 2 ;;
	--count) count=${2:?--count needs a number}; shift 2 ;;
	--no-vary) vary=n; shift ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
[[ $count =~ ^[1-9][0-9]*$ ]] || die "--count must be a positive number, not '$count'"
lock_work
mapfile -t cells < <(matrix cells "$names")
[[ ${#cells[@]} -gt 0 ]] || die "no cells selected"
if [[ -z $step ]]; then
	mapfile -t all < <(step_names)
	[[ ${#all[@]} -gt 0 ]] || die "no steps: run scripts/prepare-tree.sh first"
	step=${all[-1]}
fi
sha=$(step_sha "$step") || die "unknown step $step"

# The load: one busy loop per host CPU, each in a group of its own.
load_pids=()
stop_load() {
	local p
	for p in "${load_pids[@]}"; do kill -- "-$p" 2>/dev/null || true; done
	load_pids=()
}
trap stop_load EXIT
start_load() {
	local i
	for ((i = 0; i < $(nproc); i++)); do
		setsid bash -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
		load_pids+=("$!")
	done
}

rc=0
for cell in "${cells[@]}"; do
	out=$RESULTS/$PKG/repeat/$cell
	# No summary of an earlier run may outlive a failure of this one.
	rm -rf "$out"
	cell_settings "$cell" || exit 2
	bdir=$BUILD/$cell
	stamp=$(build_stamp "$sha")
	if [[ $(cat "$bdir/sched-tinify.built" 2>/dev/null) != "$stamp" ]]; then
		note "$cell: $bdir does not hold $step with the current inputs: building it (run-cell.sh)"
		one=0
		run "$REPO/scripts/run-cell.sh" "$step" "$cell" || one=$?
		[[ $one -lt 2 ]] || { note "$cell: run-cell.sh failed (exit $one)"; rc=2; continue; }
		[[ $(cat "$bdir/sched-tinify.built" 2>/dev/null) == "$stamp" ]] ||
			{ note "$cell: no build stamp after run-cell.sh"; rc=2; continue; }
	fi
	checkout_step "$sha" || die "cannot check $step out in $TREE (see above)"

	# The variants: name, CPUs asked for, QEMU arguments, host loaded. A
	# CPU count above the kernel's CONFIG_NR_CPUS would only boot fewer.
	nr_cpus=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$bdir/.config")
	vname=("cpus$cpus") vcpus=("$cpus") vargs=("$qemu_args") vload=(n)
	if [[ $vary == y ]]; then
		if [[ $smp == y ]]; then
			for n in 2 8; do
				if [[ $n -gt ${nr_cpus:-1} ]]; then
					note "$cell: no -smp $n variant: the kernel has CONFIG_NR_CPUS=${nr_cpus:-?}"
					continue
				fi
				vname+=("cpus$n") vcpus+=("$n") vargs+=("${qemu_args//-smp $cpus/-smp $n}") vload+=(n)
			done
		fi
		vname+=("cpus$cpus-loaded") vcpus+=("$cpus") vargs+=("$qemu_args") vload+=(y)
	fi
	mkdir -p "$out"
	printf 'cell=%s\nstep=%s\nsha=%s\ncount=%s\ncpus=%s\n' "$cell" "$step" "$sha" "$count" "$cpus" >"$out/meta"
	awk '{ print "input_" $0 }' <<<"$inputs" >>"$out/meta"
	printf '[%s] %s, %s boots per variant: %s\n' "$cell" "$step" "$count" \
		"${vname[*]}"
	cd "$TREE"
	for j in "${!vname[@]}"; do
		[[ ${vload[j]} == n ]] || start_load
		for ((i = 1; i <= count; i++)); do
			d=$out/${vname[j]}/$(printf '%03d' "$i")
			mkdir -p "$d"
			exec=(python3 tools/testing/kunit/kunit.py exec --arch="$arch" --build_dir="$bdir"
				--kunitconfig="$kunitconfig" --timeout="$timeout" --json="$d/kunit.json")
			[[ -n $cross ]] && exec+=(--cross_compile="$cross")
			[[ -n ${vargs[j]} ]] && exec+=(--qemu_args="${vargs[j]}")
			printf -v q ' %q' "${exec[@]}"
			printf 'variant=%s\ncpus=%s\nload=%s\nexec_cmd=%s\n' "${vname[j]}" "${vcpus[j]}" "${vload[j]}" "${q# }" >"$d/meta"
			rm -f "$bdir/test.log"
			t0=$(date +%s)
			erc=0
			run "${exec[@]}" </dev/null >"$d/exec.log" 2>&1 || erc=$?
			cp "$bdir/test.log" "$d/test.log" 2>/dev/null || : >"$d/test.log"
			timed_out=n
			grep -q 'timed out after' "$d/exec.log" && timed_out=y
			printf 'exec_rc=%s\ntimed_out=%s\nbooted_cpus=%s\nseconds=%s\ncomplete=y\n' \
				"$erc" "$timed_out" "$(booted_cpus "$d/test.log")" "$(($(date +%s) - t0))" >>"$d/meta"
		done
		stop_load
	done
	cd "$REPO"
	one=0
	python3 "$REPO/scripts/flakes.py" --tree "$TREE" "$out" || one=$?
	[[ $one -le 1 ]] || { note "$cell: flakes.py could not judge $out (exit $one)"; one=2; }
	[[ $one -le $rc ]] || rc=$one
done
exit "$rc"
