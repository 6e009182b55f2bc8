#!/usr/bin/env bash
# Build and run one cell of the matrix at one step of the series.
#
# Usage: scripts/run-cell.sh STEP CELL
#   STEP  a step name from $STEPS_FILE (see prepare-tree.sh), e.g. 00-baseline
#   CELL  a cell name from ci/matrix.json, e.g. arm-up
#
# Checks the step's commit out in the build tree (checkout_step), builds
# with kunit.py in the cell's own build folder, boots it under QEMU
# and keeps in $RESULTS/$PKG/STEP/CELL/: build.log, exec.log, test.log (the
# raw console), kunit.json, config (.config), size (text data bss dec of
# vmlinux and kernel/sched/built-in.a), cmd (the kunit.py commands,
# shell-quoted, to rerun by hand) and meta: what ran (step, commit, cell,
# as input_* lines every other input that decides the result, see
# scripts/matrix.py inputs, and the kunit.py commands as build_cmd and
# exec_cmd), timings, exit codes, the CPU check, and last
# "complete=y". A run stopped by a signal ends its meta with
# "interrupted=SIGINT" (or SIGTERM) instead; one that died with no marker
# at all is as incomplete. Exit status: 0 all passed, 1 test failure or
# crash, 2 build or harness failure, 128+N stopped by signal N.
#
# A debug run (scripts/lockdep.sh, scripts/debug-cells.sh) sets:
#   SCHED_TINIFY_KCONFIG_ADD  extra options, space-separated (e.g.
#                             "CONFIG_PROVE_LOCKING=y")
#   SCHED_TINIFY_DEBUG        its name: it builds in $BUILD/CELL-NAME
#   SCHED_TINIFY_MAKE_ADD     kbuild variables for the build, space-separated
#                             (e.g. "UBSAN_SANITIZE_core.o=y")
#   SCHED_TINIFY_KMEMLEAK     the console device (ttyS0, ttyAMA0): boot with
#                             an initramfs whose init (scripts/kmemleak-init.c)
#                             scans for leaks after the suites; kunit.py's
#                             own arguments come after "--" and become
#                             init's (kunit.enable=1 too, harmless: KUnit is
#                             enabled by default)
# After a successful build, $BUILD/.../sched-tinify.built holds the step's
# commit and the inputs' digest: scripts/repeat.sh boots such a folder
# again without building.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[[ $# -eq 2 ]] || die "usage: ${0##*/} STEP CELL"
step=$1 cell=$2
lock_work

out=$RESULTS/$PKG/$step/$cell
meta=$out/meta
fail() {
	printf '%s: %s %s: %s\n' "${0##*/}" "$step" "$cell" "$*" >&2
	[[ -f $meta ]] && printf 'harness_failed=y\ncomplete=y\n' >>"$meta"
	exit 2
}

sha=$(step_sha "$step") || fail "unknown step (see above)"
cell_settings "$cell" || exit 2
# Nothing of an earlier run of this cell and step may outlive this one.
rm -rf "$out"
debug=${SCHED_TINIFY_DEBUG:-}
[[ -z ${SCHED_TINIFY_KCONFIG_ADD:-} || -n $debug ]] || debug=debug
bdir=$BUILD/$cell${debug:+-$debug}
console=${SCHED_TINIFY_KMEMLEAK:-}
[[ -z $console || $console =~ ^tty[A-Za-z0-9]+$ ]] || fail "SCHED_TINIFY_KMEMLEAK must be a console device, not '$console'"
initrd=$bdir/kmemleak-initramfs.cpio

checkout_step "$sha" || fail "cannot check $step out in $TREE (see above)"

set_cc "$compiler"
args=(--arch="$arch" --build_dir="$bdir" --kunitconfig="$kunitconfig")
[[ -n $cross ]] && args+=(--cross_compile="$cross")
for opt in ${SCHED_TINIFY_KCONFIG_ADD:-}; do
	args+=(--kconfig_add="$opt")
done
build=(python3 tools/testing/kunit/kunit.py build "${args[@]}" --jobs="$(nproc)"
	--make_options="CC=$cc")
for opt in ${SCHED_TINIFY_MAKE_ADD:-}; do
	build+=(--make_options="$opt")
done
exec=(python3 tools/testing/kunit/kunit.py exec "${args[@]}" --timeout="$timeout")
[[ -z $console ]] || qemu_args+="${qemu_args:+ }-initrd $initrd"
[[ -n $qemu_args ]] && exec+=(--qemu_args="$qemu_args")
# kunit.py puts its own console= and kunit_shutdown= last: after "--" they
# go to init, and the kernel runs init once the suites are done.
[[ -z $console ]] || exec+=(--kernel_args="console=$console --")
exec+=(--json="$out/kunit.json")

mkdir -p "$out" "$bdir"
# What ran, first: a result that stops early is still tied to its step and
# inputs. The EXIT trap marks a run that a signal stopped.
{
	printf 'package=%s\npackage_version=%s\nkernel=%s\n' "$PKG" \
		"$(cat "$WORK/$PKG/package-version")" "$("$REPO/scripts/kernel-version.sh")"
	printf 'step=%s\nsha=%s\ncell=%s\narch=%s\n' "$step" "$sha" "$cell" "$arch"
	printf 'smp=%s\ncpus=%s\n' "$smp" "$cpus"
	[[ -z $debug ]] || printf 'debug=%s\n' "$debug"
	[[ -z $console ]] || printf 'kmemleak=y\n'
	awk '{ print "input_" $0 }' <<<"$inputs"
	# The commands as they ran (also in cmd, with the folder, to rerun).
	printf -v q ' %q' "${build[@]}"
	printf 'build_cmd=%s\n' "${q# }"
	printf -v q ' %q' "${exec[@]}"
	printf 'exec_cmd=%s\n' "${q# }"
} >"$meta"
# The same commands as argument lists (NUL-separated), for the scripts that
# run them again (debug-selfcheck.sh): read, never evaluated.
printf '%s\0' "${build[@]}" >"$out/build.argv"
printf '%s\0' "${exec[@]}" >"$out/exec.argv"
trap '[[ -z $INTERRUPTED ]] || echo "interrupted=SIG$INTERRUPTED" >>"$meta"' EXIT
{
	printf 'cd %q\nexport PYTHONDONTWRITEBYTECODE=1\n' "$TREE"
	[[ -n ${CCACHE_BASEDIR:-} ]] && printf 'export CCACHE_BASEDIR=%q\n' "$CCACHE_BASEDIR"
	printf '%q ' "${build[@]}"
	printf '\nrm -f %q\n' "$bdir/test.log"
	printf '%q ' "${exec[@]}"
	printf '</dev/null\n'
} >"$out/cmd"

# kmemleak_initrd: the initramfs with scripts/kmemleak-init.c as /init,
# built with nolibc and this tree's uapi headers (make headers).
kmemleak_initrd() {
	local mk=(make -C "$TREE" O="$bdir" ARCH="$arch" ${cross:+CROSS_COMPILE="$cross"})
	run "${mk[@]}" headers || return 1
	"${cross}gcc" -Os -static -nostdlib -fno-stack-protector -I "$bdir/usr/include" \
		-include "$TREE/tools/include/nolibc/nolibc.h" -o "$bdir/kmemleak-init" \
		"$REPO/scripts/kmemleak-init.c" -lgcc || return 1
	printf 'dir /d 700 0 0\nfile /init %s 755 0 0\n' "$bdir/kmemleak-init" >"$bdir/kmemleak-initramfs.list"
	"$bdir/usr/gen_init_cpio" "$bdir/kmemleak-initramfs.list" >"$initrd"
}

cd "$TREE"
rm -f "$bdir/sched-tinify.built"
t0=$(date +%s)
build_rc=0
run "${build[@]}" >"$out/build.log" 2>&1 || build_rc=$?
if [[ $build_rc -eq 0 && -n $console ]]; then
	kmemleak_initrd >>"$out/build.log" 2>&1 || build_rc=$?
fi
t1=$(date +%s)
cp "$bdir/.config" "$out/config" 2>/dev/null || true
if [[ $build_rc -ne 0 ]]; then
	printf 'build_rc=%s\nbuild_seconds=%s\n' "$build_rc" "$((t1 - t0))" >>"$meta"
	tail -n 30 "$out/build.log" >&2
	fail "build failed (exit $build_rc); log: $out/build.log"
fi
# Sizes (text data bss dec) of the kernel and of the scheduler, for the
# report's baseline-to-final comparison.
{
	"${cross}size" "$bdir/vmlinux" | awk 'NR == 2 { print "vmlinux", $1, $2, $3, $4 }'
	"${cross}size" -t "$bdir/kernel/sched/built-in.a" |
		awk '/\(TOTALS\)/ { print "kernel/sched/built-in.a", $1, $2, $3, $4 }'
} >"$out/size" || fail "size failed on $bdir/vmlinux or kernel/sched/built-in.a"
build_stamp "$sha" >"$bdir/sched-tinify.built"

exec_rc=0
# kunit.py starts QEMU before it opens test.log: no earlier log may stand in.
rm -f "$bdir/test.log"
run "${exec[@]}" </dev/null >"$out/exec.log" 2>&1 || exec_rc=$?
t2=$(date +%s)
cp "$bdir/test.log" "$out/test.log" 2>/dev/null || : >"$out/test.log"

# Is the cell what it claims? .config and the CPUs the kernel brought up.
if grep -qx 'CONFIG_SMP=y' "$out/config"; then config_smp=y; else config_smp=n; fi
booted=$(booted_cpus "$out/test.log")
timed_out=n
grep -q 'timed out after' "$out/exec.log" && timed_out=y

{
	printf 'config_smp=%s\nbooted_cpus=%s\n' "$config_smp" "$booted"
	printf 'build_rc=%s\nexec_rc=%s\ntimed_out=%s\n' "$build_rc" "$exec_rc" "$timed_out"
	printf 'build_seconds=%s\nrun_seconds=%s\n' "$((t1 - t0))" "$((t2 - t1))"
} >>"$meta"

[[ $config_smp == "$smp" ]] || fail "cell claims smp=$smp but .config has CONFIG_SMP=$config_smp"
[[ $booted == "$cpus" ]] || fail "cell claims $cpus CPU(s) but the kernel brought up $booted"
echo complete=y >>"$meta"
[[ $timed_out == n ]] || { note "$step $cell: QEMU timed out after ${timeout}s; log: $out/test.log"; exit 1; }
if [[ $exec_rc -ne 0 ]]; then
	note "$step $cell: tests failed or crashed (kunit.py exec exit $exec_rc); log: $out/test.log"
	exit 1
fi
note "$step $cell: passed (build $((t1 - t0))s, run $((t2 - t1))s)"
