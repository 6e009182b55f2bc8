#!/usr/bin/env bash
# The main job: install what is missing, prepare the kernel tree and its
# steps, build and run every step of the series in every cell, and write
# the reviewer report to $RESULTS/$PKG/report.md.
#
# Usage: scripts/matrix.sh [--cells A,B] [--builds A,B|none] [--steps S1,S2]
#                          [--prepare-only]
#   --cells         cells of ci/matrix.json to run (default: all)
#   --builds        build-only configurations of ci/matrix.json to build
#                   with W=1 (scripts/build-only.sh), a list, "all" or
#                   "none"; default: all without --cells, none with it
#   --steps         steps to run, by name from the steps file (default: all;
#                   00-baseline is what every step is compared with)
#   --prepare-only  install packages and prepare the tree, run nothing
#
# Exit status 0 only if every step ran in every cell, nothing failed or
# crashed, every step's results are identical to the baseline's, every
# build-only configuration built with no W=1 warning in kernel/sched/ that
# the baseline does not have, and the last step's text is at most 0.1%
# larger than the baseline's in every cell.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

cells='' builds='' steps='' prepare_only=n
while [[ $# -gt 0 ]]; do
	case $1 in
	--cells) cells=${2:?--cells needs a list}; shift 2 ;;
	--builds) builds=${2:?--builds needs a list}; shift 2 ;;
	--steps) steps=${2:?--steps needs a list}; shift 2 ;;
	--prepare-only) prepare_only=y; shift ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done

start=$(date +%s)
"$REPO/scripts/deps.sh"
"$REPO/scripts/prepare-tree.sh"
[[ $prepare_only == y ]] && exit 0

mapfile -t cell_list < <(matrix cells "$cells")
[[ ${#cell_list[@]} -gt 0 ]] || die "no cells selected"
build_list=()
[[ -n $builds ]] || { [[ -n $cells ]] && builds=none || builds=all; }
case $builds in
none) ;;
all) mapfile -t build_list < <(matrix builds) ;;
*) mapfile -t build_list < <(matrix builds "$builds") ;;
esac
if [[ -n $steps ]]; then
	IFS=, read -r -a step_list <<<"$steps"
else
	mapfile -t step_list < <(awk '{ print $1 }' "$STEPS_FILE")
fi
for s in "${step_list[@]}"; do
	grep -q "^$s " "$STEPS_FILE" || die "no step $s (known: $(awk '{ printf "%s ", $1 }' "$STEPS_FILE"))"
done

for s in "${step_list[@]}"; do
	for c in "${cell_list[@]}"; do
		t=$(date +%s)
		rc=0
		"$REPO/scripts/run-cell.sh" "$s" "$c" || rc=$?
		note "$s $c: exit $rc after $(($(date +%s) - t)) s"
	done
	for b in "${build_list[@]}"; do
		t=$(date +%s)
		rc=0
		"$REPO/scripts/build-only.sh" "$s" "$b" || rc=$?
		note "$s $b: exit $rc after $(($(date +%s) - t)) s"
	done
done

rc=0
report "$(IFS=,; echo "${step_list[*]}")" "$RESULTS/$PKG" "$(series_dir)" \
	"$RESULTS/$PKG/report.md" --cells "$(IFS=,; echo "${cell_list[*]}")" \
	--builds "$(IFS=,; echo "${build_list[*]}")" --size-limit 0.1 || rc=$?
note "report: $RESULTS/$PKG/report.md; total $(($(date +%s) - start)) s; exit $rc"
exit "$rc"
