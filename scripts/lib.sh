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

# die MESSAGE: the harness could not do its job (a usage error, a missing
# tool or file, a git or build-folder operation that failed): exit 2.
die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 2
}

# red MESSAGE: what the harness checks failed (a patch does not apply as
# posted, a static check found problems): exit 1, as a red run.
red() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

# fail_with RC MESSAGE: a script this one ran exited RC (not 0): red when
# RC is 1, a harness failure otherwise.
fail_with() {
	local rc=$1
	shift
	[[ $rc -ne 1 ]] || red "$@"
	die "$@"
}

note() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The command line of the script that sources this (for the lock's holder).
CMDLINE="${0##*/}${*:+ $*}"
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
# SCHED_TINIFY_STEPS_FILE: another steps file (tests).
STEPS_FILE=$(realpath -m "${SCHED_TINIFY_STEPS_FILE:-$WORK/$PKG/steps}")

# Never leave byte-compiled files in the kernel tree or the repo.
export PYTHONDONTWRITEBYTECODE=1

# The harness itself: python3 -m sched_tinify, from any folder.
export PYTHONPATH=$REPO${PYTHONPATH:+:$PYTHONPATH}

# tinify ARGS...: python3 -m sched_tinify ARGS, as a child this script can
# stop (run).
tinify() {
	run python3 -m sched_tinify "$@"
}

# The series folder of $PKG (needs python3: not for deps.sh).
series_dir() {
	if [[ -n ${SCHED_TINIFY_SERIES:-} ]]; then
		realpath -m "$SCHED_TINIFY_SERIES"
	else
		printf '%s/%s\n' "$REPO" "$(python3 -m sched_tinify info patches)"
	fi
}

# series_patches DIR: set PATCHES to the patch file names of DIR/series, in
# order (scripts/steps.py reads it). No subshell: a bad series stops the
# caller.
series_patches() {
	local out
	out=$(python3 "$REPO/scripts/steps.py" patches "$1") || die "cannot read the series in $1 (see above)"
	PATCHES=()
	[[ -z $out ]] || mapfile -t PATCHES <<<"$out"
}

# lock_work: one run at a time per package work folder. Takes an exclusive
# flock on $WORK/$PKG/lock for as long as this script (and what it starts,
# which inherits the descriptor) runs, and writes who holds it into the
# file. A script started by the holder finds the lock inherited and goes
# on; any other run stops at once, naming the holder, with exit status
# LOCKED (75, EX_TEMPFAIL: try again later).
LOCKED=75
lock_work() {
	local lock=$WORK/$PKG/lock holder pid
	if [[ -n ${SCHED_TINIFY_LOCK_FD:-} && -e /proc/$$/fd/$SCHED_TINIFY_LOCK_FD &&
		/proc/$$/fd/$SCHED_TINIFY_LOCK_FD -ef $lock ]]; then
		return 0
	fi
	mkdir -p "$WORK/$PKG" || die "cannot make $WORK/$PKG"
	exec {LOCK_FD}>>"$lock" || die "cannot open $lock"
	if ! flock -n "$LOCK_FD"; then
		holder=$(<"$lock")
		pid=${holder#pid }
		pid=${pid%%,*}
		if [[ -z $holder ]]; then
			holder="a run that is still starting"
		elif ! kill -0 "$pid" 2>/dev/null; then
			holder+="; pid $pid has ended, but a process it started still holds the lock (fuser -v $lock)"
		else
			holder+="; stop it with kill $pid"
		fi
		printf '%s: error: another run holds %s: %s. It checks steps out in %s and writes the steps file: wait for it to end.\n' \
			"${0##*/}" "$lock" "$holder" "$TREE" >&2
		exit "$LOCKED"
	fi
	printf 'pid %s, started %s, command: %s\n' "$$" "$(date -u '+%F %T UTC')" \
		"$CMDLINE" >"$lock"
	export SCHED_TINIFY_LOCK_FD=$LOCK_FD
}

# Stopping: one SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed) or
# SIGQUIT stops the run within seconds. Long commands run through run():
# in the background, so that the trap fires at once instead of when they
# end, and in a process group of their own, so that a terminal's Ctrl-C
# reaches only the script the user started. The handler sends SIGTERM to
# the child's group (a script stops its own child the same way; kunit.py,
# make and QEMU just end), waits for the group to go, kills what is left,
# and exits 128+signal. Each level waits 3 s less than the one above it
# (SCHED_TINIFY_STOP_WAIT, tenths of a second, 150 at the top), so that a
# script always stops its own child before its parent gives up on it.
# INTERRUPTED names the signal for an EXIT trap.
CHILD='' INTERRUPTED=''
STOP_WAIT=${SCHED_TINIFY_STOP_WAIT:-150}
exec {STDERR_FD}>&2
on_signal() {
	local i target
	trap '' INT TERM HUP QUIT
	INTERRUPTED=$1
	# To the script's own stderr, not to the log a child writes; the
	# terminal may be gone.
	note "SIG$1: stopping" 2>&"$STDERR_FD" || true
	# A signal between starting the child and recording it: jobs knows.
	[[ -n $CHILD ]] || CHILD=$(jobs -p | tail -n 1)
	if [[ -n $CHILD ]]; then
		# Its group, or the child alone if it has not made one yet.
		target=-$CHILD
		kill -TERM -- "$target" 2>/dev/null || { target=$CHILD; kill -TERM "$target" 2>/dev/null; } || true
		for ((i = 0; i < STOP_WAIT; i++)); do
			kill -0 -- "$target" 2>/dev/null || break
			sleep 0.1
		done
		[[ $i -lt $STOP_WAIT ]] || kill -KILL -- "$target" 2>/dev/null || true
		wait "$CHILD" 2>/dev/null || true
	fi
	exit $((128 + $(kill -l "$1")))
}
for sig in INT TERM HUP QUIT; do
	# shellcheck disable=SC2064 # $sig now, on purpose
	trap "on_signal $sig" "$sig"
done

# run CMD...: run CMD, and all it starts, as a child this script can stop.
# setsid does not fork here (a background child of a shell without job
# control is no group leader), so $! is CMD's pid and its group's id.
run() {
	local rc=0
	[[ $- != *m* ]] || die "run: job control is on; run the scripts, do not source them"
	SCHED_TINIFY_STOP_WAIT=$((STOP_WAIT > 60 ? STOP_WAIT - 30 : 30)) setsid -w "$@" &
	CHILD=$!
	wait "$CHILD" || rc=$?
	CHILD=''
	return "$rc"
}

# quietly CMD...: run CMD to its end in a process group of its own, out of
# reach of the signals that stop this script (which waits for it): for
# what must not be cut off half-way (a checkout, dpkg, composing steps).
quietly() {
	setsid -w "$@"
}
