#!/usr/bin/env bash
# The main job: install what is missing (scripts/deps.sh), prepare the
# kernel tree and its steps (the pristine tree plus patches 1..N exactly as
# posted, the tests laid on top), then build, boot and judge every target
# of ci/matrix.json at every step -- the cells, the tiny cells (at the
# steps with their option), the debug cells (and their planted bugs at the
# last step), the build-only configurations (W=1), the upstream-form tests
# -- boot every cell 10 more times a variant at the last step (flakes),
# run the peer check at the baseline and the last step, run every mutant
# where it applies, and write the report: results/PKG/report.md,
# report.json and junit/.
#
# Usage: scripts/matrix.sh [--targets A,B] [--kinds cell,tiny,debug,build,upstream]
#                          [--steps S1,S2] [--reuse] [--repeat N] [--peer]
#                          [--sched-only]
#        scripts/matrix.sh --judge [same options]
#        scripts/matrix.sh --prepare-only
#   without --targets, --kinds, --steps or --repeat (the main job, also
#   with --reuse or --judge): every target, every step, --repeat 10 --peer,
#   and every mutant of kunit/mutants/*/ at its first step and its last
#   --reuse      keep a fresh result (of the current inputs, complete): to go on
#   --judge      build nothing: judge the results of the steps as they are now, and report
#   --peer       the peer check at each step --steps names, else the first and last
#   --prepare-only  install packages and prepare the tree, run nothing
#
# Exit status: 0 green, 1 red, 2 the harness could not build, run or
# judge, 75 another run holds the work folder, 128+N stopped by signal N.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h | --help) usage; exit 0 ;;
--judge) shift; tinify judge "$@" ;;
--prepare-only) "$REPO/scripts/deps.sh"; tinify prepare ;;
esac
"$REPO/scripts/deps.sh"
tinify run "$@"
