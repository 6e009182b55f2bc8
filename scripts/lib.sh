# shellcheck shell=bash
# shellcheck disable=SC2034  # the settings are used by the scripts that source this
# Common settings for the sched-tinify scripts; sourced, never run.
#
# Environment (all optional; relative paths are taken from the current folder):
#   SCHED_TINIFY_PKG      Debian source package (default linux-source-6.1)
#   SCHED_TINIFY_WORK     work folder for trees and builds (default: work/ in
#                         the repository)
#   SCHED_TINIFY_RESULTS  results folder (default: results/ in the repository)
#   SCHED_TINIFY_SERIES   series folder (default: the package's folder in
#                         ci/matrix.json, i.e. patches/ for linux-source-6.1);
#                         to try a patch, or break code on purpose, without
#                         touching patches/

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PKG=${SCHED_TINIFY_PKG:-linux-source-6.1}
WORK=$(realpath -m "${SCHED_TINIFY_WORK:-$REPO/work}")
RESULTS=$(realpath -m "${SCHED_TINIFY_RESULTS:-$REPO/results}")
# Kbuild refuses source and build paths with spaces or colons.
[[ $WORK != *[[:space:]:]* ]] || die "the work folder '$WORK' has a space or a colon: kbuild cannot build there (set SCHED_TINIFY_WORK)"
# The tree that is built: one commit per step, checked out in turn.
TREE=$WORK/$PKG/linux
# A second worktree of the same repository where the steps are composed,
# so that a patch that fails to apply never touches $TREE.
SCRATCH=$WORK/$PKG/compose
BUILD=$WORK/$PKG/build
STEPS_FILE=$WORK/$PKG/steps

# Never leave byte-compiled files in the kernel tree or the repo.
export PYTHONDONTWRITEBYTECODE=1

# matrix FIELD...: read ci/matrix.json through scripts/matrix.py.
matrix() {
	python3 "$REPO/scripts/matrix.py" "$@"
}

# The series folder of $PKG (needs python3: not for deps.sh).
series_dir() {
	if [[ -n ${SCHED_TINIFY_SERIES:-} ]]; then
		realpath -m "$SCHED_TINIFY_SERIES"
	else
		printf '%s/%s\n' "$REPO" "$(matrix patches "$PKG")"
	fi
}

# series_patches DIR: set PATCHES to the patch file names of DIR/series, in
# order (a last line without a newline counts too). No subshell: a missing
# series file stops the caller.
series_patches() {
	local line
	PATCHES=()
	[[ -f $1/series ]] || die "no series file at $1/series"
	while IFS= read -r line || [[ -n $line ]]; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		[[ -z $line ]] || PATCHES+=("$line")
	done <"$1/series"
}

# step_sha STEP: print the commit of STEP from $STEPS_FILE; fail (status 1,
# with a note) when there is no steps file or no such step.
step_sha() {
	local sha
	[[ -f $STEPS_FILE ]] || { note "no $STEPS_FILE: run scripts/prepare-tree.sh first"; return 1; }
	sha=$(awk -v s="$1" '$1 == s { print $2 }' "$STEPS_FILE")
	[[ -n $sha ]] || { note "no step $1 in $STEPS_FILE"; return 1; }
	printf '%s\n' "$sha"
}

# set_cc COMPILER: set cc to the compiler kbuild should use, through ccache
# when it is installed, with paths relative to the package folder so that a
# clone elsewhere hits the cache.
set_cc() {
	cc=$1
	if command -v ccache >/dev/null; then
		cc="ccache $1"
		export CCACHE_BASEDIR=$WORK/$PKG
	fi
}

# checkout_step SHA: check SHA out in $TREE, which must be clean (builds
# go to $BUILD only), also when it is at SHA already (an interrupted
# checkout); then check that the tests are the same bytes as kunit/.
# Only the files that differ change, so build folders rebuild incrementally.
checkout_step() {
	local f
	[[ -z $(git -C "$TREE" status --porcelain) ]] ||
		{ note "$TREE has local changes: refusing to build (git -C $TREE status)"; return 1; }
	if [[ $(git -C "$TREE" rev-parse HEAD) != "$1" ]]; then
		git -C "$TREE" checkout -q --detach "$1" || { note "cannot check $1 out in $TREE"; return 1; }
	fi
	while read -r f; do
		cmp -s "$REPO/kunit/$f" "$TREE/$f" ||
			{ note "$f in the tree differs from kunit/$f at $1"; return 1; }
	done < <(cd "$REPO/kunit" && find kernel -type f)
}

# report STEPS RESULTS_DIR SERIES_DIR OUT [report.py options]: judge a run.
report() {
	local steps=$1 results=$2 series=$3 out=$4
	shift 4
	rm -f "$out"
	python3 "$REPO/scripts/report.py" --tree "$TREE" --results "$results" \
		--steps-file "$STEPS_FILE" --series-dir "$series" --package "$PKG" \
		--package-version "$(cat "$WORK/$PKG/package-version")" \
		--kernel-version "$("$REPO/scripts/kernel-version.sh")" \
		--steps "$steps" --out "$out" "$@"
}
