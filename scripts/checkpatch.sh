#!/usr/bin/env bash
# Run the kernel tree's scripts/checkpatch.pl --strict on every patch of the
# series, on kunit/hook.patch and on every file under kunit/kernel.
#
# Usage: scripts/checkpatch.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

cp=$TREE/scripts/checkpatch.pl
[[ -x $cp ]] || die "no $cp: run scripts/prepare-tree.sh first"
# spdxcheck.py needs ply and git: Debian's python3 has them (scripts/deps.sh).
export PATH=/usr/bin:$PATH
opts=(--strict --no-summary --quiet --show-types --root="$TREE")
bad=0
series=$(series_dir)
series_patches "$series"

for patch in "${PATCHES[@]}"; do
	"$cp" "${opts[@]}" "$series/$patch" || { note "checkpatch: $patch"; bad=1; }
done

# The hook is a patch of its own, checked like the series.
"$cp" "${opts[@]}" "$REPO/kunit/hook.patch" || { note "checkpatch: kunit/hook.patch"; bad=1; }

while read -r f; do
	"$cp" "${opts[@]}" -f "$REPO/kunit/$f" || { note "checkpatch: kunit/$f"; bad=1; }
done < <(cd "$REPO/kunit" && find kernel -type f | LC_ALL=C sort)

[[ $bad -eq 0 ]] || exit 1
echo "checkpatch: clean (${#PATCHES[@]} patch(es), kunit/)"
