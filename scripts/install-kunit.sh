#!/usr/bin/env bash
# Install kunit/ into a kernel tree: copy every test file to the same path
# in the tree, then apply kunit/hook.patch (the Kconfig source line and the
# #include in kernel/sched/build_policy.c). run-cell.sh checks at every
# step that the files in the tree are still byte-identical to kunit/.
#
# Usage: scripts/install-kunit.sh TREE
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[[ $# -eq 1 && -d $1 ]] || die "usage: ${0##*/} TREE"
tree=$1
src=$REPO/kunit

cd "$src"
mapfile -t files < <(find kernel -type f | LC_ALL=C sort)
[[ ${#files[@]} -gt 0 ]] || die "no test files under $src/kernel"
for f in "${files[@]}"; do
	[[ -e $tree/$f ]] && die "$f already exists in $tree: refusing to overwrite kernel code"
	mkdir -p "$tree/$(dirname "$f")"
	cp "$f" "$tree/$f"
done
git -C "$tree" apply --whitespace=error-all "$src/hook.patch" ||
	die "kunit/hook.patch does not apply to $tree"
