#!/usr/bin/env bash
# Prove that the tests can fail: every mutant (a sed script that breaks
# the code a suite guards) runs at a step of the series with that one
# mutant applied, and must make that step's results differ from the
# baseline's, in every cell run that builds its code. A mutant marked
# "# expect: survive: <why>" must instead leave the results unchanged, so
# that the reason stays true.
#
# A mutant's file says where it applies: "# file: <path in the tree>",
# "# step: NN", the first step of the series at which its code exists,
# and, for code that a later patch moves away, "# until: NN", the last
# (default: the last step of the series); "# cells: A B" names the cells
# that build its code and can see what it breaks (default: all). It runs
# at its first step and at its
# last. The mutant series is the real series with, after patch K, each
# mutant of step K and its revert; the real step K runs too, as the
# control of its mutants, and must be the same as the baseline.
#
# With --tiny CELL, the mutants break code that only a tiny cell's suites
# guard (ci/matrix.json "tiny", e.g. the CONFIG_SCHED_CLASS_DL=n paths); their
# files say so with a "# tiny: OPTION" line (the cell's "needs", e.g.
# SCHED_CLASS_DL), and a run keeps the mutants of its kind and leaves the others
# out (a "# tiny cells: A B" line keeps a mutant to the tiny cells it
# names; on a mutant of the cells' kind, it runs it in those tiny cells
# too, from the first step with the option). The control is the last step
# of the real series, which must be as expected; a mutant step is killed
# when its results differ from the cell's expected results. Results:
# $RESULTS/mutants-tiny/CELL/.
#
# Usage: scripts/mutants.sh [--cells A,B | --tiny CELL] [--last-only] [--judge-only] DIR|FILE...
#   DIR     folders of mutants, e.g. kunit/mutants/sched_dl_checkparam
#   FILE    one mutant (*.sed), or a list of mutant paths relative to the
#           repository, one per line, "#" comments allowed (such as
#           kunit/mutants/ci-subset)
#   --cells cells to run in, or "all" (default: x86_64-smp)
#   --tiny  the tiny cell to run tiny mutants in
#   --last-only  run each mutant at its last step only (the test command's
#           subset: the series' final code, built incrementally from the
#           last step)
#   --judge-only  do not build or run: judge the results of the last run
#
# Results go to $RESULTS/mutants/ (report.md and report.json of the run
# under $PKG/); the summary, judged by scripts/results.py from report.json,
# with each cell's score, to $RESULTS/mutants/summary.md.
# Exit status 0 only if every mutant did what it was expected to do.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

cells=x86_64-smp cells_given=n judge_only=n tiny='' last_only=n
# A mutant that crashes the kernel leaves QEMU hanging until the timeout;
# a healthy run takes seconds, so do not wait the default 240 s for it.
: "${KUNIT_TIMEOUT:=60}"
export KUNIT_TIMEOUT
while [[ ${1:-} == --* ]]; do
	case $1 in
	--cells) cells=${2:?--cells needs a list}; cells_given=y; shift 2 ;;
	--tiny) tiny=${2:?--tiny needs a tiny cell}; shift 2 ;;
	--judge-only) judge_only=y; shift ;;
	--last-only) last_only=y; shift ;;
	*) die "unknown option $1" ;;
	esac
done
[[ $cells != all ]] || cells=$(matrix cells | paste -sd,)
[[ $# -gt 0 ]] || die "usage: ${0##*/} [--cells A,B | --tiny CELL] [--last-only] [--judge-only] DIR|FILE..."
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

# Every mutant names the first step of the real series at which its code
# exists ("# step: NN") and, for code that a later patch moves, the last
# ("# until: NN"; default: the last step of the series). It runs at both.
run "$REPO/scripts/prepare-tree.sh"
select_steps ''
real_steps=("${STEP_LIST[@]}")
last=$((${#real_steps[@]} - 1))
# step_index NN: the index of step NN of the real series (00 = baseline).
step_index() {
	[[ $1 =~ ^[0-9][0-9]$ && $((10#$1)) -le $last ]] || return 1
	printf '%d\n' $((10#$1))
}
# Keep the mutants of this run's kind: without --tiny, those with no
# "# tiny:" line; with --tiny, the "# tiny: OPTION" ones of the cell's
# option (and, with a "# tiny cells: A B" line, that name it), and the
# cells' ones whose "# tiny cells:" line names it (from the first step
# with the option on, below).
kept=()
for m in "${mutants[@]}"; do
	kind=$(sed -n 's/^# tiny: //p' "$m" | head -n 1)
	only=$(sed -n 's/^# tiny cells: //p' "$m" | head -n 1)
	if [[ -z $tiny ]]; then
		[[ -n $kind ]] || kept+=("$m")
	elif [[ -n $kind ]]; then
		[[ $kind == "$needs" && (-z $only || " $only " == *" $tiny "*) ]] && kept+=("$m")
	else
		[[ " $only " != *" $tiny "* ]] || kept+=("$m")
	fi
done
[[ ${#kept[@]} -eq ${#mutants[@]} ]] ||
	note "left out $((${#mutants[@]} - ${#kept[@]})) mutant(s) of another kind (\"# tiny:\" lines; see --tiny)"
[[ ${#kept[@]} -gt 0 ]] || die "no mutant to run${tiny:+ in $tiny}"
mutants=("${kept[@]}")
# at[K]: the mutants (indices into mutants) to run at step K of the real
# series, each at its first step and at its last.
declare -A at=()
for i in "${!mutants[@]}"; do
	m=${mutants[$i]}
	first=$(sed -n 's/^# step: //p' "$m" | head -n 1)
	until=$(sed -n 's/^# until: //p' "$m" | head -n 1)
	f=$(step_index "$first") || die "$m: no '# step: NN' line naming a step of the series (00-$(printf %02d "$last"))"
	# A cells' mutant in a tiny cell: from the first step with the option.
	if [[ -n $tiny ]] && [[ -z $(sed -n 's/^# tiny: //p' "$m") ]]; then
		while [[ $f -lt $last ]] && ! has_option "$(step_sha "${real_steps[$f]}")" "$needs"; do
			f=$((f + 1))
		done
	fi
	u=$last
	[[ -z $until ]] || u=$(step_index "$until") || die "$m: '# until: $until' names no step of the series"
	[[ $u -ge $f ]] || die "$m: '# until: $until' is before '# step: $first'"
	ats=("$f" "$u")
	[[ $last_only == n ]] || ats=("$u")
	for k in "${ats[@]}"; do
		[[ " ${at[$k]:-} " == *" $i "* ]] || at[$k]+=" $i"
		if [[ -n $tiny ]]; then
			has_option "$(step_sha "${real_steps[$k]}")" "$needs" ||
				die "$m: step ${real_steps[$k]} has no config $needs: not a $tiny mutant there"
		fi
	done
done
mapfile -t ks < <(printf '%s\n' "${!at[@]}" | sort -n)

# A small git repository of the mutated files: at each step K in ks, the
# files as the real series has them at K, then each mutant of K and its
# revert. Its commits make the mutant patches, which go into the real
# series after patch K: every mutant step is step K plus one mutant.
mut=$WORK/$PKG/mutants
rm -rf "$mut"
mkdir -p "$mut/series"
git init -q "$mut/git"
cd "$mut/git"
mapfile -t files < <(sed -n 's/^# file: //p' "${mutants[@]}" | sort -u)
export GIT_AUTHOR_NAME=mutant GIT_AUTHOR_EMAIL=mutant@localhost
export GIT_COMMITTER_NAME=mutant GIT_COMMITTER_EMAIL=mutant@localhost
# Fixed dates: the same mutants give the same step commits (--judge-only).
export GIT_AUTHOR_DATE="2017-06-14T13:19:22+0000" GIT_COMMITTER_DATE="2017-06-14T13:19:22+0000"
git commit -q --allow-empty -m empty
declare -A pairs_of=()
num=1000
for k in "${ks[@]}"; do
	# The step's own commit is its tests' parent: the series only.
	sha=$(step_sha "${real_steps[$k]}")^
	git rm -q -r --ignore-unmatch -- . >/dev/null
	for f in "${files[@]}"; do
		git -C "$TREE" cat-file -e "$sha:$f" 2>/dev/null || continue
		mkdir -p "$(dirname "$f")"
		git -C "$TREE" show "$sha:$f" >"$f"
	done
	git add -A && git commit -q --allow-empty -m "step $k" && git tag "step$k"
	for i in ${at[$k]}; do
		m=${mutants[$i]}
		f=$(sed -n 's/^# file: //p' "$m" | head -n 1)
		[[ -n $f ]] || die "$m: no '# file:' line"
		[[ -f $f ]] || die "$m: no $f at step ${real_steps[$k]}"
		sed -i -f "$m" "$f" || die "$m: sed failed"
		[[ -n $(git status --porcelain) ]] || die "$m changes nothing in $f at step ${real_steps[$k]}: fix its pattern"
		git commit -q -a -m "mutant $(basename "${m%.sed}")" -m "From ${m#"$REPO"/}." \
			-m "Signed-off-by: mutant <mutant@localhost>"
		git checkout -q "step$k" -- .
		git commit -q -a -m "revert mutant $(basename "${m%.sed}")" \
			-m "Signed-off-by: mutant <mutant@localhost>"
	done
	mapfile -t new < <(git format-patch --start-number $((num + 1)) -o "$mut/series" "step$k..HEAD")
	[[ ${#new[@]} -eq $((2 * $(wc -w <<<"${at[$k]}"))) ]] || die "git format-patch failed in $mut/git"
	num=$((num + ${#new[@]}))
	pairs_of[$k]="${new[*]##*/}"
done
# The mutant series: the real series with each step's mutant pairs after
# it. run_steps: the steps to run (the controls and the mutant steps);
# pairs: STEP=MUTANT for the judges.
series_patches "$(series_dir)"
list=() pairs=() controls=()
for k in $(seq 0 "$last"); do
	if [[ $k -gt 0 ]]; then
		cp "$(series_dir)/${PATCHES[$((k - 1))]}" "$mut/series/"
		list+=("${PATCHES[$((k - 1))]}")
	fi
	[[ -n ${at[$k]:-} ]] || continue
	# The real step before the pairs is the control of its mutants (for a
	# tiny cell, the last step of the real series only).
	[[ -n $tiny && $k -ne $last ]] || controls+=("${#list[@]}")
	read -r -a pp <<<"${pairs_of[$k]}"
	j=0
	for i in ${at[$k]}; do
		list+=("${pp[$j]}")
		pairs+=("${#list[@]}:$i")
		list+=("${pp[$((j + 1))]}")
		j=$((j + 2))
	done
done
printf '%s\n' "${list[@]}" >"$mut/series/series"
# The mutant series gets a steps file of its own: the real one is never
# touched, so a stopped run has nothing to restore.
export SCHED_TINIFY_STEPS_FILE=$mut/steps
STEPS_FILE=$mut/steps
SCHED_TINIFY_SERIES=$mut/series run "$REPO/scripts/prepare-tree.sh"
select_steps ''
pair_args=() control_args=() run_steps=()
for p in "${pairs[@]}"; do
	pair_args+=("${STEP_LIST[${p%%:*}]}=${mutants[${p#*:}]}")
	run_steps+=("${STEP_LIST[${p%%:*}]}")
done
for c in "${controls[@]}"; do
	control_args+=(--control "${STEP_LIST[$c]}")
	run_steps+=("${STEP_LIST[$c]}")
done
# What a cell's mutant steps are compared with: its baseline.
[[ -n $tiny ]] || run_steps+=("${STEP_LIST[0]}")
# In the order of the series: each real step is built once.
mapfile -t run_steps < <(printf '%s\n' "${run_steps[@]}" | sort -n -u)
steps_arg=$(IFS=,; echo "${run_steps[*]}")
note "${#pair_args[@]} mutant step(s) and their references: $steps_arg"

out=$RESULTS/mutants
if [[ -n $tiny ]]; then
	# Killed means: the tiny cell's results at the mutant step are not its
	# expected results, while the control (the last step of the real
	# series) is as expected.
	out=$RESULTS/mutants-tiny/$tiny
	if [[ $judge_only == n ]]; then
		rm -rf "$out"
		SCHED_TINIFY_SERIES=$mut/series SCHED_TINIFY_RESULTS=$out \
			run "$REPO/scripts/tiny-cells.sh" --cells "$tiny" --steps "$steps_arg" || true
	fi
	mkdir -p "$out"
	python3 "$REPO/scripts/tiny.py" mutants --results "$out/$PKG" --cell "$tiny" \
		--expected "$expected_file" --steps-file "$STEPS_FILE" "${control_args[@]}" \
		--summary "$out/summary.md" "${pair_args[@]}" ||
		die "a mutant did not do what it was expected to do, or the control is not green (see $out/summary.md)"
	exit 0
fi
# matrix.sh exits 1 when a mutant is red, which is the point: the judging
# below reads every step's results, and stops on anything it cannot judge.
if [[ $judge_only == n ]]; then
	# The baseline of the mutant series is the real baseline's commit: a
	# fresh result of the real run (same commit and inputs) is kept, not
	# built again (matrix.sh --reuse judges its freshness).
	for c in ${cells//,/ }; do
		if [[ -d $RESULTS/$PKG/00-baseline/$c ]]; then
			rm -rf "${out:?}/$PKG/00-baseline/$c"
			mkdir -p "$out/$PKG/00-baseline"
			cp -a "$RESULTS/$PKG/00-baseline/$c" "$out/$PKG/00-baseline/$c"
		fi
	done
	SCHED_TINIFY_SERIES=$mut/series SCHED_TINIFY_RESULTS=$out \
		run "$REPO/scripts/matrix.sh" --cells "$cells" --builds none --steps "$steps_arg" \
		--reuse || true
fi

rc=0
report "$steps_arg" "$out/$PKG" "$mut/series" "$out/$PKG/report.md" --cells "$cells" >/dev/null || rc=$?
[[ $rc -le 1 ]] || { note "report.py could not judge the mutant run (exit $rc)"; exit 2; }
# Killed in a cell means: it built, it ran, and its results there differ
# from the baseline's, while every control step is the same as the
# baseline; results.py says which did what, cell by cell.
python3 "$REPO/scripts/results.py" mutants "$out/$PKG/report.json" "$out/summary.md" \
	"${control_args[@]}" "${pair_args[@]}" ||
	die "a mutant did not do what it was expected to do (see $out/summary.md)"
