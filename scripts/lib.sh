# shellcheck shell=bash
# shellcheck disable=SC2034  # the settings are used by the scripts that source this
# Common settings for the sched-tinify scripts; sourced, never run.
#
# Environment (all optional):
#   SCHED_TINIFY_PKG      Debian source package (default linux-source-6.1)
#   SCHED_TINIFY_WORK     work folder for trees and builds (default ./work)
#   SCHED_TINIFY_RESULTS  results folder (default ./results)
#   SCHED_TINIFY_SERIES   series folder (default: the package's folder in
#                         ci/matrix.json, i.e. patches/ for linux-source-6.1);
#                         to try a patch, or break code on purpose, without
#                         touching patches/

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PKG=${SCHED_TINIFY_PKG:-linux-source-6.1}
WORK=${SCHED_TINIFY_WORK:-$REPO/work}
RESULTS=${SCHED_TINIFY_RESULTS:-$REPO/results}
# The tree that is built: one commit per step, checked out in turn.
TREE=$WORK/$PKG/linux
# A second worktree of the same repository where the steps are composed,
# so that a patch that fails to apply never touches $TREE.
SCRATCH=$WORK/$PKG/compose
BUILD=$WORK/$PKG/build
STEPS_FILE=$WORK/$PKG/steps
SERIES_DIR=${SCHED_TINIFY_SERIES:-$REPO/$(python3 "$REPO/scripts/matrix.py" patches "$PKG")} ||
	exit 1

# Never leave byte-compiled files in the kernel tree or the repo.
export PYTHONDONTWRITEBYTECODE=1

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# matrix FIELD...: read ci/matrix.json through scripts/matrix.py.
matrix() {
	python3 "$REPO/scripts/matrix.py" "$@"
}
