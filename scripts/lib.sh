# shellcheck shell=bash
# shellcheck disable=SC2034  # the settings are used by the scripts that source this
# Common settings of the shell entry points; sourced, never run. The
# harness is python3 -m sched_tinify (docs/harness.rst: its variables).

# die MESSAGE: the harness could not do its job: exit 2.
die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 2
}

note() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# usage: the script's header comment.
usage() {
	sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=$(realpath -m "${SCHED_TINIFY_WORK:-$REPO/work}")

# Never leave byte-compiled files in the kernel tree or the repo.
export PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH=$REPO${PYTHONPATH:+:$PYTHONPATH}

# tinify_info WHAT [--kernel PKG]: a value of ci/matrix.json, or a message.
tinify_info() {
	python3 -m sched_tinify info "$@" || note "cannot read $1 from ci/matrix.json (see above)"
}

# tinify ARGS...: become python3 -m sched_tinify ARGS (exec: signals reach
# it, and it stops what it started; its exit status is the script's).
tinify() {
	exec python3 -m sched_tinify "$@"
}
