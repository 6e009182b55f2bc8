#!/usr/bin/env bash
# Prove that the tests can fail: for every mutant (a sed script that breaks
# the code a suite guards), run a step whose tree is the baseline with that
# one mutant applied, and check that the step's results differ from the
# baseline's. A mutant marked "# expect: survive: <why>" must instead leave
# the results unchanged, so that the reason stays true.
#
# Usage: scripts/mutants.sh [--cells A,B] [--judge-only] DIR...
#   DIR     folders of mutants, e.g. kunit/mutants/sched_dl_checkparam; each
#           *.sed file starts with "# file: <path in the tree>"
#   --cells cells to run in (default: x86_64-smp)
#   --judge-only  do not build or run: judge the results of the last run
#
# Results go to $RESULTS/mutants/; the summary to $RESULTS/mutants/summary.md.
# Exit status 0 only if every mutant did what it was expected to do.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

cells=x86_64-smp judge_only=n
# A mutant that crashes the kernel leaves QEMU hanging until the timeout;
# a healthy run takes seconds, so do not wait the default 240 s for it.
: "${KUNIT_TIMEOUT:=60}"
export KUNIT_TIMEOUT
while [[ ${1:-} == --* ]]; do
	case $1 in
	--cells) cells=${2:?--cells needs a list}; shift 2 ;;
	--judge-only) judge_only=y; shift ;;
	*) die "unknown option $1" ;;
	esac
done
[[ $# -gt 0 ]] || die "usage: ${0##*/} [--cells A,B] [--judge-only] DIR..."
shopt -s nullglob
mutants=()
for d in "$@"; do
	[[ -d $d ]] || die "no folder $d"
	found=("$(realpath "$d")"/*.sed)
	[[ ${#found[@]} -gt 0 ]] || die "no *.sed mutants in $d"
	mutants+=("${found[@]}")
done
shopt -u nullglob

# The baseline of the real series is what every mutant starts from; the
# steps of the real series are put back however this script ends.
"$REPO/scripts/prepare-tree.sh"
trap '"$REPO/scripts/prepare-tree.sh" >/dev/null 2>&1 || note "could not restore the steps of the series: run scripts/prepare-tree.sh"' EXIT
base=$(awk 'NR == 1 { print $2 }' "$STEPS_FILE")
mut=$WORK/$PKG/mutants
rm -rf "$mut"
mkdir -p "$mut/series"
git init -q "$mut/git"
cd "$mut/git"
mapfile -t files < <(sed -n 's/^# file: //p' "${mutants[@]}" | sort -u)
for f in "${files[@]}"; do
	mkdir -p "$(dirname "$f")"
	git -C "$TREE" show "$base:$f" >"$f" || die "no $f in the baseline"
done
export GIT_AUTHOR_NAME=mutant GIT_AUTHOR_EMAIL=mutant@localhost
export GIT_COMMITTER_NAME=mutant GIT_COMMITTER_EMAIL=mutant@localhost
# Fixed dates: the same mutants give the same step commits (--judge-only).
export GIT_AUTHOR_DATE="2017-06-14T13:19:22+0000" GIT_COMMITTER_DATE="2017-06-14T13:19:22+0000"
git add -A && git commit -q -m base && git tag base
for m in "${mutants[@]}"; do
	f=$(sed -n 's/^# file: //p' "$m" | head -n 1)
	[[ -n $f ]] || die "$m: no '# file:' line"
	git checkout -q base -- .
	sed -i -f "$m" "$f" || die "$m: sed failed"
	[[ -n $(git status --porcelain) ]] || die "$m changes nothing in $f: fix its pattern"
	git commit -q -a -m "mutant $(basename "${m%.sed}")" -m "From ${m#"$REPO"/}." \
		-m "Signed-off-by: mutant <mutant@localhost>"
done
git format-patch -q -o "$mut/series" base..HEAD
(cd "$mut/series" && ls -- *.patch) >"$mut/series/series"

out=$RESULTS/mutants
# matrix.sh exits 1 when a mutant is red, which is the point: the judging
# below reads every step's results, and stops on anything it cannot judge.
if [[ $judge_only == n ]]; then
	SCHED_TINIFY_SERIES=$mut/series SCHED_TINIFY_RESULTS=$out \
		"$REPO/scripts/matrix.sh" --cells "$cells" || true
else
	SCHED_TINIFY_SERIES=$mut/series "$REPO/scripts/prepare-tree.sh"
fi
mapfile -t steps < <(awk 'NR > 1 { print $1 }' "$STEPS_FILE")
[[ ${#steps[@]} -eq ${#mutants[@]} ]] ||
	die "$STEPS_FILE has ${#steps[@]} mutant steps for ${#mutants[@]} mutants: the mutant series was not prepared"

# A mutant is only killed by a difference from a green baseline.
base_rc=0
report 00-baseline "$out/$PKG" "$mut/series" "$out/00-baseline.md" \
	--cells "$cells" >/dev/null || base_rc=$?
[[ $base_rc -eq 0 ]] || die "the baseline is not green in $cells (see $out/00-baseline.md): mutants prove nothing"

summary=$out/summary.md
bad=0
{
	echo "# Mutants ($cells)"
	echo
	echo "| step | expected | result | first differences |"
	echo "|---|---|---|---|"
} >"$summary"
for i in "${!steps[@]}"; do
	s=${steps[$i]} m=${mutants[$i]}
	expect=killed
	grep -q '^# expect: survive' "$m" && expect=survived
	rc=0
	report "$s" "$out/$PKG" "$mut/series" "$out/$s.md" --cells "$cells" >/dev/null || rc=$?
	case $rc in
	0) result=survived ;;
	1) result=killed ;;
	*) die "report.py could not judge $s" ;;
	esac
	# Killed means: it built, it ran, and its results differ from the baseline.
	if grep -q 'BUILD FAILED\|NOT RUN\|: stale: ' "$out/$s.md"; then
		result="invalid (did not build, run, or is stale)"
	elif [[ $result == killed ]] && ! grep -q '\*\*DIFFERS\*\*' "$out/$s.md"; then
		result="invalid (red without a difference)"
	fi
	first=$(awk '/^- [^ ]+ [^ ]+: (changed|missing|new): / {
		sub(/^- [^ ]+ [^ ]+: /, ""); print; if (++n == 3) exit }' "$out/$s.md" | paste -sd ';' -)
	echo "| $s | $expect | $result | ${first//|/\\|} |" >>"$summary"
	[[ $result == "$expect" ]] || bad=1
done

cat "$summary"
[[ $bad -eq 0 ]] || die "a mutant did not do what it was expected to do (see $summary)"
