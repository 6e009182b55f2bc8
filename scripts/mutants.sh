#!/usr/bin/env bash
# Prove that the tests can fail: for every mutant (a sed script that breaks
# the code a suite guards), run a step whose tree is the baseline with that
# one mutant applied, and check that the step's results differ from the
# baseline's. A mutant marked "# expect: survive: <why>" must instead leave
# the results unchanged, so that the reason stays true.
#
# With --tiny CELL, the mutants break code that only a tiny cell's suites
# guard (ci/matrix.json "tiny", e.g. the CONFIG_SCHED_DL=n paths); their
# files say so with a "# tiny: OPTION" line (the cell's "needs", e.g.
# SCHED_DL), and a run keeps the mutants of its kind and leaves the others
# out (a "# tiny cells: A B" line keeps a mutant to the tiny cells it
# names). The mutant series is then the real series, followed by each
# mutant and its revert; the last step of the real series runs as the control
# and must be as expected, and each mutant step runs in that tiny cell
# (scripts/tiny-cells.sh) and is killed when its results differ from the
# cell's expected results. Results: $RESULTS/mutants-tiny/CELL/.
#
# Usage: scripts/mutants.sh [--cells A,B | --tiny CELL] [--judge-only] DIR|FILE...
#   DIR     folders of mutants, e.g. kunit/mutants/sched_dl_checkparam; each
#           *.sed file starts with "# file: <path in the tree>"
#   FILE    one mutant (*.sed), or a list of mutant paths relative to the
#           repository, one per line, "#" comments allowed (such as
#           kunit/mutants/ci-subset)
#   --cells cells to run in (default: x86_64-smp)
#   --tiny  the tiny cell to run mutants of the last step in
#   --judge-only  do not build or run: judge the results of the last run
#
# Results go to $RESULTS/mutants/ (report.md and report.json of the run
# under $PKG/); the summary, judged by scripts/results.py from report.json,
# to $RESULTS/mutants/summary.md.
# Exit status 0 only if every mutant did what it was expected to do.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

cells=x86_64-smp cells_given=n judge_only=n tiny=''
# A mutant that crashes the kernel leaves QEMU hanging until the timeout;
# a healthy run takes seconds, so do not wait the default 240 s for it.
: "${KUNIT_TIMEOUT:=60}"
export KUNIT_TIMEOUT
while [[ ${1:-} == --* ]]; do
	case $1 in
	--cells) cells=${2:?--cells needs a list}; cells_given=y; shift 2 ;;
	--tiny) tiny=${2:?--tiny needs a tiny cell}; shift 2 ;;
	--judge-only) judge_only=y; shift ;;
	*) die "unknown option $1" ;;
	esac
done
[[ $# -gt 0 ]] || die "usage: ${0##*/} [--cells A,B | --tiny CELL] [--judge-only] DIR|FILE..."
if [[ -n $tiny ]]; then
	[[ $cells_given == n ]] || die "--cells and --tiny exclude each other"
	matrix tiny "$tiny" >/dev/null || die "no tiny cell $tiny in ci/matrix.json"
	needs=$(matrix cell "$tiny" needs)
	expected_file=$REPO/$(matrix cell "$tiny" expected)
fi
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
if [[ -n $tiny ]]; then
	# The last step of the real series, which must have the option.
	select_steps ''
	last=${STEP_LIST[-1]}
	base=$(step_sha "$last")
	has_option "$base" "$needs" || die "the last step, $last, has no config $needs: no tiny mutants"
fi
# Keep the mutants of this kind: "# tiny: OPTION" ones for a tiny cell
# whose option it is (and, with a "# tiny cells: A B" line, that it names:
# code only that cell's configuration builds or runs), the others otherwise.
kept=()
for m in "${mutants[@]}"; do
	kind=$(sed -n 's/^# tiny: //p' "$m" | head -n 1)
	only=$(sed -n 's/^# tiny cells: //p' "$m" | head -n 1)
	[[ -z $only || " $only " == *" ${tiny:-} "* ]] || continue
	[[ $kind == "${needs:-}" ]] && kept+=("$m")
done
[[ ${#kept[@]} -eq ${#mutants[@]} ]] ||
	note "left out $((${#mutants[@]} - ${#kept[@]})) mutant(s) of another kind (\"# tiny:\" lines; see --tiny)"
[[ ${#kept[@]} -gt 0 ]] || die "no mutant to run${tiny:+ in $tiny}"
mutants=("${kept[@]}")
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
	# A tiny mutant sits on top of the series: the next one starts from
	# the series again.
	if [[ -n $tiny ]]; then
		git checkout -q base -- .
		git commit -q -a -m "revert mutant $(basename "${m%.sed}")" \
			-m "Signed-off-by: mutant <mutant@localhost>"
	fi
done
if [[ -z $tiny ]]; then
	git format-patch -q -o "$mut/series" base..HEAD
	(cd "$mut/series" && ls -- *.patch) >"$mut/series/series"
else
	series_patches "$(series_dir)"
	for p in "${PATCHES[@]}"; do cp "$(series_dir)/$p" "$mut/series/"; done
	mapfile -t new < <(git format-patch --start-number $((${#PATCHES[@]} + 1)) \
		-o "$mut/series" base..HEAD)
	[[ ${#new[@]} -eq $((2 * ${#mutants[@]})) ]] || die "git format-patch failed in $mut/git"
	printf '%s\n' "${PATCHES[@]}" "${new[@]##*/}" >"$mut/series/series"
fi

out=$RESULTS/mutants
if [[ -n $tiny ]]; then
	out=$RESULTS/mutants-tiny/$tiny
	# The control is the last step of the real series, which must be
	# GREEN; the mutant steps are every other step after it (the steps
	# between are the reverts).
	SCHED_TINIFY_SERIES=$mut/series run "$REPO/scripts/prepare-tree.sh"
	select_steps ''
	control=${STEP_LIST[${#PATCHES[@]}]}
	pairs=() run_steps=("$control")
	for i in "${!mutants[@]}"; do
		s=${STEP_LIST[$((${#PATCHES[@]} + 1 + 2 * i))]}
		run_steps+=("$s")
		pairs+=("$s=${mutants[$i]}")
	done
	if [[ $judge_only == n ]]; then
		rm -rf "$out"
		SCHED_TINIFY_SERIES=$mut/series SCHED_TINIFY_RESULTS=$out \
			run "$REPO/scripts/tiny-cells.sh" --cells "$tiny" \
			--steps "$(IFS=,; echo "${run_steps[*]}")" || true
	fi
	mkdir -p "$out"
	python3 "$REPO/scripts/tiny.py" mutants --results "$out/$PKG" --cell "$tiny" \
		--expected "$expected_file" --steps-file "$STEPS_FILE" --control "$control" \
		--summary "$out/summary.md" "${pairs[@]}" ||
		die "a mutant did not do what it was expected to do, or the control is not green (see $out/summary.md)"
	exit 0
fi
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
