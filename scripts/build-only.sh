#!/usr/bin/env bash
# Build one build-only configuration of ci/matrix.json ("builds": Kconfig
# combinations the cells do not cover) at one step of the series, with
# W=1, and keep the warnings that point into kernel/sched/ or into a file
# that the series touches (any patch of it, at every step).
#
# Usage: scripts/build-only.sh [--sched-only] STEP BUILD
#   STEP   a step name from $STEPS_FILE, e.g. 00-baseline
#   BUILD  a build name from ci/matrix.json, e.g. x86_64-up-lean
#   --sched-only  build kernel/sched/ only (make's single-directory target),
#          not vmlinux: the W=1 warnings of kernel/sched/ at a fraction of
#          a cold build's time. The test command's budget builds the
#          baseline so (what later steps' warnings are compared with);
#          meta says scope=kernel/sched.
#
# A build with "needs" (a Kconfig option, e.g. SCHED_CLASS_DL) keeps the lines
# that need the option in a section of its kunitconfig that starts with the
# line "# needs SYMBOL:" and goes to the end of the file. At a step whose
# tree does not define the option, that section is left out: the build is
# then the same configuration with the option at its default (the class
# built in), and the baseline's warnings, which later steps are compared
# with, come from it. meta says which (needs_section=used|left out).
#
# Keeps in $RESULTS/$PKG/STEP/BUILD/: build.log, config (.config), cmd (the
# kunit.py command), kunitconfig (the one built), meta (as run-cell.sh's:
# input_* lines, "complete=y" last, "interrupted=SIG..." when a signal
# stopped it), and warnings (the W=1 warnings, compiler and kernel-doc,
# located in kernel/sched/ or in a file the series touches, without line
# numbers, sorted: what report.py compares with the baseline's; a
# --sched-only build has those of kernel/sched/ only).
# Exit status: 0 built, 2 build or harness failure, 128+N stopped by signal N.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# keep_warnings SCOPE FILE...: the W=1 warnings (compiler and kernel-doc)
# of the build log on stdin that are located in kernel/sched/ or, unless
# SCOPE is kernel/sched, in one of the FILEs (paths in the tree), as
# "path: warning: text" without line numbers, sorted and unique.
keep_warnings() {
	local scope=$1
	shift
	awk -v scope="$scope" -v list="$(printf '%s\n' "$@")" '
	BEGIN { n = split(list, t, "\n") }
	match($0, /[^ :]+:[0-9]+(:[0-9]+)?: warning: /) {
		path = substr($0, RSTART, RLENGTH)
		rest = substr($0, RSTART + RLENGTH)
		sub(/:[0-9]+(:[0-9]+)?: warning: $/, "", path)
		p = ""
		if ((i = index(path, "kernel/sched/")) > 0)
			p = substr(path, i)
		else if (scope != "kernel/sched")
			for (k = 1; k <= n; k++)
				if (t[k] != "" && (path == t[k] ||
				    substr(path, length(path) - length(t[k])) == "/" t[k]))
					p = t[k]
		if (p != "")
			print p ": warning: " rest
	}' | sort -u
}

scope=vmlinux
[[ ${1:-} != --sched-only ]] || { scope=kernel/sched; shift; }
[[ $# -eq 2 ]] || die "usage: ${0##*/} [--sched-only] STEP BUILD"
step=$1 build=$2
lock_work

out=$RESULTS/$PKG/$step/$build
meta=$out/meta
fail() {
	printf '%s: %s %s: %s\n' "${0##*/}" "$step" "$build" "$*" >&2
	[[ -f $meta ]] && printf 'harness_failed=y\ncomplete=y\n' >>"$meta"
	exit 2
}

sha=$(step_sha "$step") || fail "unknown step (see above)"
arch=$(matrix build "$build" arch) || exit 2
inputs=$(matrix inputs build "$build") || exit 2
cross=$(matrix build "$build" cross_compile)
compiler=$(matrix build "$build" compiler)
kunitconfig=$REPO/$(matrix build "$build" kunitconfig)
needs=$(matrix build "$build" needs) || exit 2
rm -rf "$out"
bdir=$BUILD/$build
mkdir -p "$out" "$bdir"

# The kunitconfig to build: with or without the "# needs SYMBOL:" section.
section=''
if [[ -n $needs ]]; then
	grep -qx "# needs $needs:" "$kunitconfig" ||
		fail "$kunitconfig has no \"# needs $needs:\" section"
	if has_option "$sha" "$needs"; then
		section=used
	else
		section='left out'
		awk -v m="# needs $needs:" '$0 == m { exit } { print }' "$kunitconfig" >"$out/kunitconfig"
		kunitconfig=$out/kunitconfig
	fi
fi
[[ -f $out/kunitconfig ]] || cp "$kunitconfig" "$out/kunitconfig"

# The files the series touches, from its patches: their warnings count too.
series=$(series_dir)
series_patches "$series"
touched=()
for p in "${PATCHES[@]}"; do
	mapfile -t -O "${#touched[@]}" touched < <(sed -n 's#^diff --git a/\([^ ]*\) b/.*#\1#p' "$series/$p")
done

checkout_step "$sha" || fail "cannot check $step out in $TREE (see above)"

set_cc "$compiler"
args=(--arch="$arch" --build_dir="$bdir" --kunitconfig="$kunitconfig")
[[ -n $cross ]] && args+=(--cross_compile="$cross")
if [[ $scope == vmlinux ]]; then
	cmd=(python3 tools/testing/kunit/kunit.py build "${args[@]}" --jobs="$(nproc)"
		--make_options="CC=$cc" --make_options=W=1)
	mk=()
else
	# kunit.py writes the .config, as for a full build; make builds the
	# directory (kunit.py build would pass the target to its olddefconfig
	# call too, whose output, the warnings, it does not show).
	cmd=(python3 tools/testing/kunit/kunit.py config "${args[@]}" --make_options="CC=$cc")
	mk=(make ARCH="$arch" O="$bdir" --jobs="$(nproc)" CC="$cc" W=1)
	[[ -z $cross ]] || mk+=(CROSS_COMPILE="$cross")
	mk+=(kernel/sched/)
fi

{
	printf 'step=%s\nsha=%s\nbuild=%s\narch=%s\nscope=%s\n' "$step" "$sha" "$build" "$arch" "$scope"
	[[ -z $needs ]] || printf 'needs=%s\nneeds_section=%s\n' "$needs" "$section"
	awk '{ print "input_" $0 }' <<<"$inputs"
	printf -v q ' %q' "${cmd[@]}"
	[[ ${#mk[@]} -eq 0 ]] || printf -v q '%s &&%s' "$q" "$(printf ' %q' "${mk[@]}")"
	printf 'build_cmd=%s\n' "${q# }"
} >"$meta"
trap '[[ -z $INTERRUPTED ]] || echo "interrupted=SIG$INTERRUPTED" >>"$meta"' EXIT
{
	printf 'cd %q\nexport PYTHONDONTWRITEBYTECODE=1\n' "$TREE"
	[[ -n ${CCACHE_BASEDIR:-} ]] && printf 'export CCACHE_BASEDIR=%q\n' "$CCACHE_BASEDIR"
	printf 'rm -f %q/kernel/sched/*.o\n' "$bdir"
	printf '%q ' "${cmd[@]}"
	[[ ${#mk[@]} -eq 0 ]] || printf '&& \\\n%s' "$(printf '%q ' "${mk[@]}")"
	echo
} >"$out/cmd"
# Compile every kernel/sched object, and those of the .c files the series
# touches, at every step, so that all their warnings are in this step's
# log (ccache replays them when nothing changed).
rm -f "$bdir"/kernel/sched/*.o
for f in "${touched[@]}"; do
	[[ $f != *.c ]] || rm -f "$bdir/${f%.c}.o"
done
cd "$TREE"
t0=$(date +%s)
build_rc=0
{ run "${cmd[@]}" && { [[ ${#mk[@]} -eq 0 ]] || run "${mk[@]}"; }; } >"$out/build.log" 2>&1 ||
	build_rc=$?
t1=$(date +%s)
cp "$bdir/.config" "$out/config" 2>/dev/null || true
keep_warnings "$scope" "${touched[@]}" <"$out/build.log" >"$out/warnings"
printf 'build_rc=%s\nbuild_seconds=%s\nwarnings=%s\n' "$build_rc" "$((t1 - t0))" \
	"$(wc -l <"$out/warnings")" >>"$meta"
if [[ $build_rc -ne 0 ]]; then
	tail -n 30 "$out/build.log" >&2
	fail "build failed (exit $build_rc); log: $out/build.log"
fi
echo complete=y >>"$meta"
where='kernel/sched/'
[[ $scope == kernel/sched ]] || where+=' and the files the series touches'
note "$step $build: built ($scope) in $((t1 - t0)) s, $(wc -l <"$out/warnings") W=1 warning(s) in $where"
