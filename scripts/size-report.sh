#!/usr/bin/env bash
# Measure what the series does to a tiny kernel, the figure Pitre's 2017
# series was judged by: build a small configuration without any test suite
# (tinyconfig plus what a small board needs to boot and print) at some
# steps of the series, and tabulate the sizes.
#
# Usage: scripts/size-report.sh [--arch arm,x86_64] [--steps S1,S2]
#                               [--variant NAME=CONFIG_A=n,CONFIG_B=y]...
#   --arch     architectures (default arm,x86_64)
#   --steps    steps from the steps file (default: the baseline and the
#              last step)
#   --variant  a configuration variant: NAME, then the options it sets on
#              top of the tiny configuration (e.g. dl-off=CONFIG_SCHED_CLASS_DL=n);
#              every variant is built at every step where its options all
#              reach .config, and the default variant "tiny" always
#
# Configurations: arm is tinyconfig + ARCH_MULTI_V7, ARCH_VIRT, MMU, PRINTK,
# TTY and the PL011 console (Pitre's "small ARM config", as close as 6.1
# allows); x86_64 is tinyconfig + PRINTK, TTY and the 8250 console. KUnit is
# off, so the tests installed by the steps compile to nothing.
#
# For every arch, variant and step: size (text data bss dec) of vmlinux and
# of kernel/sched/built-in.a and of each kernel/sched object,
# sizeof(struct task_struct) and sizeof(struct rq) (compiled with the flags
# of kernel/sched/build_policy.o), and the kernel's "Memory:" boot line
# when it boots in QEMU with 64 MB (no root file system: it stops at the
# panic that follows), in $RESULTS/$PKG/size/ARCH/VARIANT/STEP/; the
# table, with the tree's scripts/bloat-o-meter from the first step to the
# last, in $RESULTS/$PKG/size/report.md (scripts/sizes.py). Builds go to
# $BUILD/size-ARCH-VARIANT and are incremental from step to step.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# struct_sizes BDIR: "task_struct N" and "rq N", compiled as kbuild compiled
# kernel/sched/build_policy.o in BDIR, with that file's includes up to
# sched.h.
struct_sizes() {
	local bdir=$1 cmd sizes
	cmd=$(sed -n 's/^\(saved\)\{0,1\}cmd_kernel\/sched\/build_policy\.o := //p' \
		"$bdir/kernel/sched/.build_policy.o.cmd")
	[[ $cmd == *' -c -o kernel/sched/build_policy.o '* ]] || return 1
	{
		sed -n '1,/^#include "sched.h"/p' "$TREE/kernel/sched/build_policy.c" |
			sed "s|^#include \"sched.h\"|#include \"$TREE/kernel/sched/sched.h\"|"
		echo 'const unsigned long st_task_struct = sizeof(struct task_struct);'
		echo 'const unsigned long st_rq = sizeof(struct rq);'
	} >"$bdir/st-sizes.c"
	# The same command, to assembly, on that file.
	cmd=${cmd%% -c -o kernel/sched/build_policy.o *}
	cmd=${cmd//-Wp,-MMD,kernel\/sched\/.build_policy.o.d/}
	(cd "$bdir" && eval "$cmd -S -o st-sizes.s st-sizes.c") || return 1
	sizes=$(awk '/^st_task_struct:/ { n = "task_struct" } /^st_rq:/ { n = "rq" }
		n && $1 ~ /^\.(long|quad|word|4byte|8byte)$/ { print n, $2; n = "" }' \
		"$bdir/st-sizes.s")
	[[ $(wc -l <<<"$sizes") -eq 2 ]] || return 1
	printf '%s\n' "$sizes"
}

arches=arm,x86_64 steps='' variants=("tiny=")
while [[ $# -gt 0 ]]; do
	case $1 in
	--arch) arches=${2:?--arch needs a list}; shift 2 ;;
	--steps) steps=${2:?--steps needs a list}; shift 2 ;;
	--variant)
		[[ ${2:-} == ?*=CONFIG_* ]] || die "--variant needs NAME=CONFIG_X=y|n[,...]"
		variants+=("$2"); shift 2 ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
lock_work
run "$REPO/scripts/prepare-tree.sh"

mapfile -t known < <(step_names)
[[ ${#known[@]} -gt 0 ]] || die "no steps: run scripts/prepare-tree.sh first"
if [[ -n $steps ]]; then
	IFS=, read -r -a step_list <<<"$steps"
else
	step_list=("${known[0]}" "${known[-1]}")
fi
for s in "${step_list[@]}"; do
	step_sha "$s" >/dev/null || die "unknown step $s"
done

out_root=$RESULTS/$PKG/size
rm -rf "$out_root"
IFS=, read -r -a arch_list <<<"$arches"
for arch in "${arch_list[@]}"; do
	case $arch in
	arm)
		cross=arm-linux-gnueabihf- image=arch/arm/boot/zImage
		qemu=(qemu-system-arm -M virt -append "console=ttyAMA0 panic=-1")
		;;
	x86_64)
		cross='' image=arch/x86/boot/bzImage
		qemu=(qemu-system-x86_64 -append "console=ttyS0 panic=-1")
		;;
	*) die "unknown arch $arch (arm or x86_64)" ;;
	esac
	set_cc "${cross}gcc"
	for variant in "${variants[@]}"; do
		vname=${variant%%=*} vopts=${variant#*=}
		bdir=$BUILD/size-$arch-$vname
		mkdir -p "$bdir"
		for s in "${step_list[@]}"; do
			out=$out_root/$arch/$vname/$s
			mkdir -p "$out"
			checkout_step "$(step_sha "$s")" || die "cannot check $s out in $TREE (see above)"
			mk=(make -C "$TREE" O="$bdir" ARCH="$arch" CROSS_COMPILE="$cross" CC="$cc"
				-j"$(nproc)")
			run "${mk[@]}" tinyconfig >"$out/build.log" 2>&1 ||
				die "$arch $vname $s: make tinyconfig failed; log: $out/build.log"
			cfg=()
			for o in $(tiny_options "$arch"); do
				cfg+=(-e "$o")
			done
			IFS=, read -r -a extra <<<"$vopts"
			for o in "${extra[@]}"; do
				[[ -n $o ]] || continue
				case ${o#*=} in
				y) cfg+=(-e "${o%%=*}") ;;
				n) cfg+=(-d "${o%%=*}") ;;
				*) die "variant $vname: $o is neither =y nor =n" ;;
				esac
			done
			"$TREE/scripts/config" --file "$bdir/.config" "${cfg[@]}"
			run "${mk[@]}" olddefconfig >>"$out/build.log" 2>&1 ||
				die "$arch $vname $s: make olddefconfig failed; log: $out/build.log"
			# A variant whose options do not exist at this step is not built.
			missing=()
			for o in "${extra[@]}"; do
				[[ -n $o ]] || continue
				if [[ ${o#*=} == y ]]; then
					grep -qx "${o%%=*}=y" "$bdir/.config" || missing+=("$o")
				else
					grep -qx "# ${o%%=*} is not set" "$bdir/.config" || missing+=("$o")
				fi
			done
			if [[ ${#missing[@]} -gt 0 ]]; then
				echo "not built: ${missing[*]} not in .config at $s" >"$out/skipped"
				note "$arch $vname $s: not built (${missing[*]} not in .config)"
				continue
			fi
			grep -q '^CONFIG_KUNIT=y' "$bdir/.config" &&
				die "$arch $vname $s: KUnit is on: the sizes must be measured without test suites"
			run "${mk[@]}" vmlinux >>"$out/build.log" 2>&1 ||
				die "$arch $vname $s: build failed; log: $out/build.log"
			cp "$bdir/.config" "$out/config"
			cp "$bdir/vmlinux" "$out/vmlinux"
			{
				"${cross}size" "$bdir/vmlinux" | awk 'NR == 2 { print "vmlinux", $1, $2, $3, $4 }'
				"${cross}size" -t "$bdir/kernel/sched/built-in.a" |
					awk '/\(TOTALS\)/ { print "kernel/sched/built-in.a", $1, $2, $3, $4 }'
				for o in "$bdir"/kernel/sched/*.o; do
					"${cross}size" "$o" |
						awk -v n="kernel/sched/${o##*/}" 'NR == 2 { print n, $1, $2, $3, $4 }'
				done
			} >"$out/size"
			struct_sizes "$bdir" >"$out/structs" ||
				die "$arch $vname $s: could not measure the structures"
			# The memory the booted kernel reports: fixed RAM, one CPU.
			run "${mk[@]}" "${image##*/}" >>"$out/build.log" 2>&1 ||
				die "$arch $vname $s: make ${image##*/} failed; log: $out/build.log"
			timeout 120 "${qemu[@]}" -m 64M -nographic -no-reboot \
				-kernel "$bdir/$image" </dev/null >"$out/boot.log" 2>&1 || true
			grep -m1 -o 'Memory: .*' "$out/boot.log" | tr -d '\r' >"$out/memory" ||
				die "$arch $vname $s: no \"Memory:\" line when booted; log: $out/boot.log"
			printf '%s %s %s: %s\n' "$arch" "$vname" "$s" \
				"$(awk '$1 == "kernel/sched/built-in.a" { print "kernel/sched dec " $5 }' "$out/size")"
		done
	done
done

python3 "$REPO/scripts/sizes.py" --results "$out_root" --tree "$TREE" \
	--steps "$(IFS=,; echo "${step_list[*]}")" >"$out_root/report.md" ||
	die "sizes.py could not write the table"
note "size report: $out_root/report.md"
