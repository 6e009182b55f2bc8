#!/usr/bin/env bash
# Prove that the debug cells can go red: build each debug cell once more at
# the last step with the planted bugs of scripts/debug-selfcheck.c (a
# shift out of bounds, a pending timer set up again, a read after free,
# allocations never freed), boot it, and check that UBSAN, debug objects,
# KASAN and kmemleak each report theirs (scripts/selfcheck.py). The file
# is copied into the build tree and #included at the end of
# kernel/sched/build_policy.c for the build only; the tree is put back on
# every exit. The build and boot commands are those the debug cell's
# result at the last step recorded (scripts/debug-cells.sh runs it first).
#
# Usage: scripts/debug-selfcheck.sh [--cells A,B]
#   --cells  debug cells of ci/matrix.json (default: all)
# Results: $RESULTS/debug/NAME/selfcheck/ (build.log, exec.log, test.log,
# verdict). Exit status: 0 every planted bug reported in every cell, 1 one
# missed, 2 harness failure (no result to take the commands from, a failed
# build), 75 the work folder is busy, 128+N stopped by signal N.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

names=''
while [[ $# -gt 0 ]]; do
	case $1 in
	--cells) names=${2:?--cells needs a list}; shift 2 ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
lock_work
mapfile -t debug < <(matrix debug "$names")
[[ ${#debug[@]} -gt 0 ]] || die "no debug cells selected"
mapfile -t all < <(step_names)
[[ ${#all[@]} -gt 0 ]] || die "no steps: run scripts/prepare-tree.sh first"
last=${all[-1]}
sha=$(step_sha "$last")

planted=$TREE/kernel/sched/debug_selfcheck.c
restore() {
	git -C "$TREE" checkout -q -- kernel/sched/build_policy.c 2>/dev/null || true
	rm -f "$planted"
}
trap restore EXIT

rc=0
cd "$TREE"
# The build command's compiler is "ccache ...": hit the cache as
# run-cell.sh does.
! command -v ccache >/dev/null || export CCACHE_BASEDIR=$WORK/$PKG
for name in "${debug[@]}"; do
	cell=$(matrix debugcell "$name" cell) || exit 2
	meta=$RESULTS/debug/$name/$PKG/$last/$cell/meta
	out=$RESULTS/debug/$name/selfcheck
	rm -rf "$out"
	mkdir -p "$out"
	printf 'step=%s\nsha=%s\nsource_sha256=%s\n' "$last" "$sha" \
		"$(sha256sum <"$REPO/scripts/debug-selfcheck.c" | cut -d' ' -f1)" >"$out/meta"
	if [[ ! -f $meta || $(sed -n 's/^sha=//p' "$meta") != "$sha" ]]; then
		note "$name: no result at $last to take the commands from: run scripts/debug-cells.sh --cells $name --steps $last"
		echo "$name selfcheck: HARNESS: no debug cell result at $last" | tee "$out/verdict"
		rc=2
		continue
	fi
	build=() exec=()
	# The commands as run-cell.sh ran them, as argument lists: read, not
	# evaluated (a meta file is data).
	if [[ ! -s ${meta%/meta}/build.argv || ! -s ${meta%/meta}/exec.argv ]]; then
		echo "$name selfcheck: HARNESS: no build.argv or exec.argv at $last: run scripts/debug-cells.sh --cells $name --steps $last" | tee "$out/verdict"
		rc=2
		continue
	fi
	mapfile -d '' -t build <"${meta%/meta}/build.argv"
	mapfile -d '' -t exec <"${meta%/meta}/exec.argv"
	# The boot's JSON goes here, not over the debug cell's result.
	exec=("${exec[@]/#--json=*/--json=$out/kunit.json}")
	bdir=$(printf '%s\n' "${build[@]}" | sed -n 's/^--build_dir=//p')
	[[ -n $bdir ]] || die "$meta: no --build_dir in build_cmd"

	checkout_step "$sha" || die "cannot check $last out in $TREE (see above)"
	cp "$REPO/scripts/debug-selfcheck.c" "$planted"
	printf '\n/* sched-tinify debug self-check, never committed. */\n#include "debug_selfcheck.c"\n' \
		>>"$TREE/kernel/sched/build_policy.c"
	# The folder no longer holds the step's kernel as run-cell.sh built it.
	rm -f "$bdir/sched-tinify.built"
	printf '[%s] planted bugs at %s: started\n' "$name" "$last"
	run "${build[@]}" >"$out/build.log" 2>&1 || {
		restore
		echo "$name selfcheck: HARNESS: the build failed; log: $out/build.log" | tee "$out/verdict"
		rc=2
		continue
	}
	restore
	rm -f "$bdir/test.log"
	erc=0
	run "${exec[@]}" </dev/null >"$out/exec.log" 2>&1 || erc=$?
	cp "$bdir/test.log" "$out/test.log" 2>/dev/null || : >"$out/test.log"
	one=0
	python3 "$REPO/scripts/selfcheck.py" "$out/test.log" >"$out/checks" || one=$?
	sed "s/^/[$name] /" "$out/checks"
	printf '%s selfcheck: %s (kunit.py exec exit %s)\n' "$name" "$(tail -n 1 "$out/checks")" "$erc" >"$out/verdict"
	[[ $one -le 1 ]] || one=2
	[[ $one -le $rc ]] || rc=$one
done
exit "$rc"
