#!/usr/bin/env bash
# Run the upstream-form KUnit patches (patches/kunit/*.patch, see docs/checks.rst
# "Upstream form") as a kernel developer would: on the pristine tree with
# those patches only, no kunit/ and no series (prepare-tree.sh composes
# that commit), with `kunit.py run --kunitconfig=kernel/sched` in one cell
# of ci/matrix.json, so that they cannot rot.
#
# Usage: scripts/upstream-kunit.sh [CELL]   (default arm-up)
#
# Results in $RESULTS/$PKG/upstream-kunit/: cmd (to rerun by hand), meta,
# build.log, exec.log, test.log (the raw console), kunit.json and summary
# (one line). Exit status: 0 when the run passed with at least one test
# and every suite the patches add reported ok, 1 when a test failed or
# crashed, 2 on a build or harness failure, 128+N when stopped by signal N.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[[ $# -le 1 ]] || die "usage: ${0##*/} [CELL]"
cell=${1:-arm-up}
lock_work

out=$RESULTS/$PKG/upstream-kunit
summary=$out/summary
fail() {
	note "$*"
	mkdir -p "$out"
	printf 'upstream-kunit %s: HARNESS FAILURE: %s\n' "$cell" "$*" >"$summary"
	exit 2
}

shafile=$WORK/$PKG/upstream-kunit
[[ -s $shafile ]] || fail "no $shafile: run scripts/prepare-tree.sh first"
sha=$(cat "$shafile")
arch=$(matrix cell "$cell" arch) || exit 2
cross=$(matrix cell "$cell" cross_compile)
compiler=$(matrix cell "$cell" compiler)
qemu_args=$(matrix cell "$cell" qemu_args)
bdir=$BUILD/upstream-$cell

# The suites the patches add: every "name = " of a kunit_suite they create.
mapfile -t suites < <(cat "$(series_dir)"/kunit/*.patch |
	sed -n 's/^+[[:space:]]*\.name[[:space:]]*=[[:space:]]*"\([^"]*\)",.*/\1/p')
[[ ${#suites[@]} -gt 0 ]] || fail "no KUnit suite found in $(series_dir)/kunit/*.patch"

[[ -z $(git -C "$TREE" status --porcelain) ]] ||
	fail "$TREE has local changes: refusing to build (git -C $TREE status)"
quietly git -C "$TREE" checkout -q --detach "$sha" || fail "cannot check $sha out in $TREE"
[[ -f $TREE/kernel/sched/.kunitconfig ]] || fail "the patches ship no kernel/sched/.kunitconfig"

set_cc "$compiler"
args=(--arch="$arch" --build_dir="$bdir" --kunitconfig=kernel/sched)
[[ -n $cross ]] && args+=(--cross_compile="$cross")
cmd=(python3 tools/testing/kunit/kunit.py run "${args[@]}" --jobs="$(nproc)"
	--make_options="CC=$cc" --timeout=120 --json="$out/kunit.json")
[[ -n $qemu_args ]] && cmd+=(--qemu_args="$qemu_args")

rm -rf "$out"
mkdir -p "$out" "$bdir"
{
	printf 'package=%s\nsha=%s\ncell=%s\nsuites=%s\n' "$PKG" "$sha" "$cell" "${suites[*]}"
	printf -v q ' %q' "${cmd[@]}"
	printf 'cmd=%s\n' "${q# }"
} >"$out/meta"
{
	printf 'cd %q\nexport PYTHONDONTWRITEBYTECODE=1\n' "$TREE"
	[[ -n ${CCACHE_BASEDIR:-} ]] && printf 'export CCACHE_BASEDIR=%q\n' "$CCACHE_BASEDIR"
	printf '%q ' "${cmd[@]}"
	printf '</dev/null\n'
} >"$out/cmd"

cd "$TREE"
t0=$(date +%s)
rc=0
rm -f "$bdir/test.log"
run "${cmd[@]}" </dev/null >"$out/exec.log" 2>&1 || rc=$?
t1=$(date +%s)
cp "$bdir/test.log" "$out/test.log" 2>/dev/null || : >"$out/test.log"
printf 'rc=%s\nseconds=%s\ncomplete=y\n' "$rc" "$((t1 - t0))" >>"$out/meta"

ran=$(sed -n 's/.*Testing complete\. \(Ran .*\)/\1/p' "$out/exec.log" | tail -n 1)
if ! grep -q 'Testing complete' "$out/exec.log"; then
	tail -n 30 "$out/exec.log" >&2
	fail "kunit.py run did not build or boot (exit $rc); log: $out/exec.log"
fi
bad=()
for s in "${suites[@]}"; do
	grep -Eq "^[[:space:]]*ok [0-9]+ $s\$" "$out/test.log" || bad+=("$s")
done
if [[ $rc -ne 0 || ${#bad[@]} -gt 0 || $ran != Ran\ [1-9]* ]]; then
	printf 'upstream-kunit %s: RED: %s; not ok: %s (%s s)\n' "$cell" "${ran:-nothing ran}" \
		"${bad[*]:-none}" "$((t1 - t0))" | tee "$summary"
	exit 1
fi
printf 'upstream-kunit %s: GREEN: %s; suites ok: %s (%s s)\n' "$cell" "$ran" "${suites[*]}" \
	"$((t1 - t0))" | tee "$summary"
