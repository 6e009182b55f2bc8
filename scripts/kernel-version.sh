#!/usr/bin/env bash
# Print the version of the pristine kernel tree (VERSION.PATCHLEVEL.SUBLEVEL
# of its Makefile), e.g. 6.1.192.
#
# Usage: scripts/kernel-version.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

git -C "$TREE" show pristine:Makefile 2>/dev/null | awk '
	$1 == "VERSION" { v = $3 } $1 == "PATCHLEVEL" { p = $3 }
	$1 == "SUBLEVEL" { s = $3 } $1 == "EXTRAVERSION" { e = $3 }
	END { if (v == "") exit 1; printf "%s.%s.%s%s\n", v, p, s, e }' ||
	die "cannot read the kernel version from $TREE (run scripts/prepare-tree.sh)"
