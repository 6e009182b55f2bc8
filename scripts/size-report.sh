#!/usr/bin/env bash
# Measure what the series does to a tiny kernel, the figure Pitre's 2017
# series was judged by: tinyconfig plus what a small board needs to boot
# and print, without any test suite, at some steps of the series, booted
# in QEMU with 64 MB; the table in results/PKG/size/report.md
# (sched_tinify/sizes.py says what is measured, docs/sizes.rst how to read
# it).
#
# Usage: scripts/size-report.sh [--arch arm,x86_64] [--steps S1,S2]
#                               [--variant NAME=CONFIG_A=n,CONFIG_B=y]...
#   --steps    default: the baseline and the last step
#   --variant  options set on top of the tiny configuration (built where
#              they all reach .config); the variant "tiny" always
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[[ ${1:-} != -h && ${1:-} != --help ]] || { usage; exit 0; }
tinify sizes "$@"
