#!/usr/bin/env bash
# Prove that the tests can fail: for every mutant (a sed script that breaks
# the code a suite guards), run a step whose tree is the baseline with that
# one mutant applied, and check that the step's results differ from the
# baseline's. A mutant marked "# expect: survive: <why>" must instead leave
# the results unchanged, so that the reason stays true.
#
# Usage: scripts/mutants.sh [--cells A,B] [--judge-only] DIR|FILE...
#   DIR     folders of mutants, e.g. kunit/mutants/sched_dl_checkparam; each
#           *.sed file starts with "# file: <path in the tree>"
#   FILE    one mutant (*.sed), or a list of mutant paths relative to the
#           repository, one per line, "#" comments allowed (such as
#           kunit/mutants/ci-subset)
#   --cells cells to run in (default: x86_64-smp)
#   --judge-only  do not build or run: judge the results of the last run
#
# Results go to $RESULTS/mutants/ (report.md and report.json of the run
# under $PKG/); the summary, judged by scripts/results.py from report.json,
# to $RESULTS/mutants/summary.md.
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
[[ $# -gt 0 ]] || die "usage: ${0##*/} [--cells A,B] [--judge-only] DIR|FILE..."
lock_work
shopt -s nullglob
mutants=()
for d in "$@"; do
	if [[ -d $d ]]; then
		found=("$(realpath "$d")"/*.sed)
		[[ ${#found[@]} -gt 0 ]] || die "no *.sed mutants in $d"
	elif [[ $d == *.sed && -f $d ]]; then
		found=("$(realpath "$d")")
	elif [[ -f $d ]]; then
		found=()
		while IFS= read -r line || [[ -n $line ]]; do
			line=${line%%#*}
			line=${line//[[:space:]]/}
			[[ -z $line ]] && continue
			[[ -f $REPO/$line ]] || die "$d names $line, which is not a file of the repository"
			found+=("$REPO/$line")
		done <"$d"
		[[ ${#found[@]} -gt 0 ]] || die "$d names no mutant"
	else
		die "no folder or file $d"
	fi
	mutants+=("${found[@]}")
done
shopt -u nullglob

# The baseline of the real series is what every mutant starts from; the
# steps of the real series are put back however this script ends.
run "$REPO/scripts/prepare-tree.sh"
# quietly: a signal that stops this script must not cut the composing off.
trap 'quietly "$REPO/scripts/prepare-tree.sh" >/dev/null 2>&1 || note "could not restore the steps of the series: run scripts/prepare-tree.sh"' EXIT
base=$(step_sha 00-baseline)
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
		run "$REPO/scripts/matrix.sh" --cells "$cells" || true
else
	SCHED_TINIFY_SERIES=$mut/series run "$REPO/scripts/prepare-tree.sh"
fi

rc=0
report "" "$out/$PKG" "$mut/series" "$out/$PKG/report.md" --cells "$cells" >/dev/null || rc=$?
[[ $rc -le 1 ]] || { note "report.py could not judge the mutant run (exit $rc)"; exit 2; }
# Killed means: it built, it ran, and its results differ from a green
# baseline's; results.py says which did what.
python3 "$REPO/scripts/results.py" mutants "$out/$PKG/report.json" "$out/summary.md" \
	"${mutants[@]}" || die "a mutant did not do what it was expected to do (see $out/summary.md)"
