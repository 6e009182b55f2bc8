#!/usr/bin/env bash
# Run steps of the series once with lock and atomic-context debugging
# (CONFIG_PROVE_LOCKING, CONFIG_DEBUG_ATOMIC_SLEEP) in one cell, in a build
# folder of its own (build/CELL-lockdep); the report is red on any lockdep,
# "sleeping function called from invalid context" or other kernel splat in
# the console log.
#
# Usage: scripts/lockdep.sh [--cells A] [--steps S1,S2]
#   defaults: --cells x86_64-smp, every step
# Report: $RESULTS/lockdep/$PKG/report.md
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

cells=x86_64-smp
steps=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--cells) cells=${2:?--cells needs a list}; shift 2 ;;
	--steps) steps=(--steps "${2:?--steps needs a list}"); shift 2 ;;
	*) die "usage: ${0##*/} [--cells A] [--steps S1,S2]" ;;
	esac
done

export SCHED_TINIFY_KCONFIG_ADD="CONFIG_DEBUG_KERNEL=y CONFIG_PROVE_LOCKING=y CONFIG_DEBUG_ATOMIC_SLEEP=y"
export SCHED_TINIFY_DEBUG=lockdep
export SCHED_TINIFY_RESULTS=$RESULTS/lockdep
exec "$REPO/scripts/matrix.sh" --cells "$cells" "${steps[@]}"
