#!/usr/bin/env bash
# The peer check: boot a tiny arm kernel (the configuration of
# scripts/size-report.sh, plus an initramfs) under QEMU with a small static
# init (a script for Debian's busybox, which has no chrt applet) and show,
# as a user of that kernel sees it, which scheduling policies it accepts:
# peer/sched-setattr.c (built with the tree's nolibc) makes chrt's requests
# for SCHED_OTHER, BATCH, IDLE, FIFO and RR, util-linux chrt's
# SCHED_DEADLINE request, and prints the priority range of each policy.
# The "peer: " lines of the console are compared with the expected file of
# what the step's tiny kernel has (peer/*.expected: rt-dl, both classes;
# rt, only the deadline class out; none, neither class; none-nosys, neither
# class nor sched_setattr()). The "info: " lines (the tasks and free memory
# of the booted kernel, for the RAM figures of docs/sizes.rst) are kept in
# info.txt, not compared.
#
# Usage: scripts/peer-check.sh [--steps S1,S2]
#   --steps  steps to run at (default: the baseline and the last step)
#
# Needs busybox-static for armhf: fetched once with apt-get download into
# $WORK/peer/ (armhf is added to dpkg's architectures for that; nothing is
# installed). Builds in $BUILD/peer-arm, incrementally. Results in
# $RESULTS/$PKG/peer/STEP/: meta, console.log, build.log, peer.txt (the
# "peer: " lines), info.txt, verdict (one line). Exit status: 0 when every step is
# GREEN, 1 when one is RED, 2 on a harness failure (no busybox, a failed
# build, QEMU crashing or timing out), 128+N when stopped by signal N.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

steps=''
while [[ $# -gt 0 ]]; do
	case $1 in
	--steps) steps=${2:?--steps needs a list}; shift 2 ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
lock_work

if [[ -z $steps ]]; then
	mapfile -t all < <(step_names)
	[[ ${#all[@]} -gt 0 ]] || die "no steps: run scripts/prepare-tree.sh first"
	steps="${all[0]},${all[-1]}"
fi
select_steps "$steps"

# busybox: Debian's static armhf build, fetched once.
bb_dir=$WORK/peer
busybox=$bb_dir/busybox
if [[ ! -x $busybox ]]; then
	[[ $(id -u) -eq 0 ]] || die "no $busybox and not root: run once as root to fetch busybox-static:armhf"
	note "fetching busybox-static:armhf with apt-get download"
	dpkg --print-foreign-architectures | grep -qx armhf ||
		quietly dpkg --add-architecture armhf || die "dpkg --add-architecture armhf failed"
	quietly apt-get -q update >/dev/null 2>&1 || die "apt-get update failed"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && quietly apt-get -q download busybox-static:armhf >/dev/null 2>&1) ||
		die "apt-get download busybox-static:armhf failed"
	dpkg-deb -x "$tmp"/busybox-static_*_armhf.deb "$tmp/x" || die "cannot unpack busybox-static"
	mkdir -p "$bb_dir"
	install -m 755 "$tmp/x/bin/busybox" "$busybox"
	dpkg-deb -f "$tmp"/busybox-static_*_armhf.deb Version >"$bb_dir/busybox.version"
fi

cross=arm-linux-gnueabihf-
set_cc "${cross}gcc"
bdir=$BUILD/peer-arm
mkdir -p "$bdir"
# What the initramfs needs on top of the tiny configuration: the initramfs,
# ELF and #! binaries, the VFP that armhf binaries use, and /proc.
peer_options=(BLK_DEV_INITRD BINFMT_ELF BINFMT_SCRIPT VFP VFPv3 PROC_FS)

# fail WHY: a harness failure at step $s (results in $out).
fail() {
	printf '%s peer: HARNESS: %s\n' "$s" "$1" | tee "$out/verdict"
	rc=2
}

rc=0
for s in "${STEP_LIST[@]}"; do
	sha=$(step_sha "$s")
	out=$RESULTS/$PKG/peer/$s
	rm -rf "$out"
	mkdir -p "$out"
	printf 'step=%s\nsha=%s\nbusybox=%s\n' "$s" "$sha" "$(cat "$bb_dir/busybox.version" 2>/dev/null)" >"$out/meta"
	matrix inputs peer | sed 's/^/input_/' >>"$out/meta"
	checkout_step "$sha" || die "cannot check $s out in $TREE (see above)"
	mk=(make -C "$TREE" O="$bdir" ARCH=arm CROSS_COMPILE="$cross" CC="$cc" -j"$(nproc)")
	if ! run "${mk[@]}" tinyconfig >"$out/build.log" 2>&1; then
		fail "make tinyconfig failed; log: $out/build.log"; continue
	fi
	cfg=(--set-str INITRAMFS_SOURCE "$bdir/initramfs.list")
	for o in $(tiny_options arm) "${peer_options[@]}"; do cfg+=(-e "$o"); done
	"$TREE/scripts/config" --file "$bdir/.config" "${cfg[@]}"
	if ! run "${mk[@]}" olddefconfig >>"$out/build.log" 2>&1; then
		fail "make olddefconfig failed; log: $out/build.log"; continue
	fi
	missing=()
	for o in "${peer_options[@]}"; do grep -qx "CONFIG_$o=y" "$bdir/.config" || missing+=("$o"); done
	if [[ ${#missing[@]} -gt 0 ]]; then fail "not in .config: ${missing[*]}"; continue; fi
	# The classes this kernel has, which choose the expected file.
	classes=none
	if grep -qx 'CONFIG_SCHED_CLASS_RT=y' "$bdir/.config" || ! has_option "$sha" SCHED_CLASS_RT; then
		classes=rt
		if grep -qx 'CONFIG_SCHED_CLASS_DL=y' "$bdir/.config" || ! has_option "$sha" SCHED_CLASS_DL; then
			classes=rt-dl
		fi
	elif has_option "$sha" SCHED_ATTR_SYSCALLS && ! grep -qx 'CONFIG_SCHED_ATTR_SYSCALLS=y' "$bdir/.config"; then
		classes=none-nosys
	fi
	printf 'classes=%s\n' "$classes" >>"$out/meta"
	# sched-setattr: the uapi headers of this tree, nolibc, no C library.
	if ! run "${mk[@]}" headers >>"$out/build.log" 2>&1; then
		fail "make headers failed; log: $out/build.log"; continue
	fi
	if ! ${cross}gcc -Os -static -nostdlib -fno-stack-protector -I "$bdir/usr/include" \
		-include "$TREE/tools/include/nolibc/nolibc.h" -o "$bdir/sched-setattr" \
		"$REPO/peer/sched-setattr.c" -lgcc >>"$out/build.log" 2>&1; then
		fail "cannot build peer/sched-setattr.c; log: $out/build.log"; continue
	fi
	cat >"$bdir/initramfs.list" <<-EOF
		dir /bin 755 0 0
		dir /dev 755 0 0
		dir /proc 755 0 0
		nod /dev/console 600 0 0 c 5 1
		file /init $REPO/peer/init 755 0 0
		file /bin/busybox $busybox 755 0 0
		file /bin/sched-setattr $bdir/sched-setattr 755 0 0
	EOF
	if ! run "${mk[@]}" zImage >>"$out/build.log" 2>&1; then
		fail "build failed; log: $out/build.log"; continue
	fi
	qrc=0
	run timeout 120 qemu-system-arm -M virt -m 128 -nographic -no-reboot \
		-kernel "$bdir/arch/arm/boot/zImage" -append "console=ttyAMA0 panic=-1" \
		</dev/null >"$out/console.log" 2>&1 || qrc=$?
	printf 'qemu_exit=%s\ncomplete=y\n' "$qrc" >>"$out/meta"
	if [[ $qrc -eq 124 ]]; then fail "QEMU timed out after 120 s; log: $out/console.log"; continue; fi
	if [[ $qrc -ne 0 ]]; then fail "QEMU exited with $qrc; log: $out/console.log"; continue; fi
	if ! grep -q '^peer: done' "$out/console.log"; then
		fail "the init did not finish; log: $out/console.log"; continue
	fi
	grep '^peer: ' "$out/console.log" | tr -d '\r' >"$out/peer.txt"
	grep '^info: ' "$out/console.log" | tr -d '\r' >"$out/info.txt" || true
	expected=$REPO/peer/$classes.expected
	if [[ ! -f $expected ]]; then fail "no expected file $expected"; continue; fi
	if diff -u <(grep -v '^#' "$expected") "$out/peer.txt" >"$out/diff"; then
		printf '%s peer: GREEN: as %s (%s)\n' "$s" "${expected#"$REPO"/}" "$classes" | tee "$out/verdict"
	else
		printf '%s peer: RED: differs from %s (%s): %s\n' "$s" "${expected#"$REPO"/}" "$classes" \
			"$(grep -c '^[-+]peer' "$out/diff") line(s), see $out/diff" | tee "$out/verdict"
		[[ $rc -eq 2 ]] || rc=1
	fi
done
exit "$rc"
