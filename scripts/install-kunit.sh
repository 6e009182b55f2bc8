#!/usr/bin/env bash
# Lay kunit/ on top of one commit of a kernel tree: make, without touching
# any work tree, a child commit of COMMIT that adds every test file at the
# same path and applies kunit/hook.patch (the Kconfig source line and the
# #include at the end of kernel/sched/build_policy.c); print its id.
# sched_tinify/run.py checks at every step that the files in the tree are still
# byte-identical to kunit/.
#
# Usage: scripts/install-kunit.sh GIT_DIR COMMIT MESSAGE
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[[ $# -eq 3 ]] || die "usage: ${0##*/} GIT_DIR COMMIT MESSAGE"
git_dir=$1 base=$2 msg=$3
src=$REPO/kunit

g() { git -C "$git_dir" "$@"; }
index=$(mktemp)
trap 'rm -f "$index"' EXIT
export GIT_INDEX_FILE=$index

cd "$src"
mapfile -t files < <(find kernel -type f | LC_ALL=C sort)
[[ ${#files[@]} -gt 0 ]] || die "no test files under $src/kernel"
g read-tree "$base" || die "cannot read the tree of $base"
for f in "${files[@]}"; do
	! g cat-file -e "$base:$f" 2>/dev/null ||
		die "$f already exists in $base: refusing to overwrite kernel code"
	blob=$(g hash-object -w --path="$f" -- "$src/$f") || die "cannot store $f"
	g update-index --add --cacheinfo "100644,$blob,$f" || die "cannot add $f"
done
g apply --cached --whitespace=error-all "$src/hook.patch" ||
	die "kunit/hook.patch does not apply to $base"
tree=$(g write-tree) || die "cannot write the tree"
g commit-tree -p "$base" -m "$msg" "$tree" || die "cannot commit the tests on $base"
