#!/usr/bin/env bash
# Run the kernel tree's scripts/checkpatch.pl --strict on every patch of the
# series, on the upstream-form test patches (<series>/kunit/), on
# kunit/hook.patch and on every file under kunit/kernel.
#
# Usage: scripts/checkpatch.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

cp=$TREE/scripts/checkpatch.pl
[[ -x $cp ]] || die "no $cp: run scripts/matrix.sh --prepare-only first"
# spdxcheck.py needs ply and git: Debian's python3 has them (scripts/deps.sh).
export PATH=/usr/bin:$PATH
opts=(--strict --no-summary --quiet --show-types --root="$TREE")
bad=0
series=$(python3 -m sched_tinify info series) || die "cannot read ci/matrix.json"
out=$(python3 -m sched_tinify info patches) || die "cannot read the series in $series (see above)"
PATCHES=()
[[ -z $out ]] || mapfile -t PATCHES <<<"$out"

for patch in "${PATCHES[@]}"; do
	"$cp" "${opts[@]}" "$series/$patch" || { note "checkpatch: $patch"; bad=1; }
done

# The upstream-form test patches. FILE_PATH_CHANGES ("does MAINTAINERS
# need updating?") is ignored: kernel/sched/ is the SCHEDULER entry's.
# Each *_test.c one adds must be a suite of kunit/kernel/sched/ from its
# first #include on (the header comments differ).
body() { sed -n '/^#include/,$p'; }
for patch in "$series"/kunit/*.patch; do
	[[ -f $patch ]] || continue
	"$cp" "${opts[@]}" --ignore FILE_PATH_CHANGES "$patch" ||
		{ note "checkpatch: ${patch#"$series"/}"; bad=1; }
	while read -r f; do
		got=$(sed -n "\|^+++ b/$f\$|,/^diff --git/{s/^+//p}" "$patch" | body)
		for suite in "$REPO"/kunit/kernel/sched/*_test.c; do
			[[ $(body <"$suite") == "$got" ]] && continue 2
		done
		note "${patch#"$series"/}: its $f is no suite of kunit/kernel/sched/"; bad=1
	done < <(sed -n 's|^+++ b/\(.*_test\.c\)$|\1|p' "$patch")
done

# The hook is a patch of its own, checked like the series.
"$cp" "${opts[@]}" "$REPO/kunit/hook.patch" || { note "checkpatch: kunit/hook.patch"; bad=1; }

while read -r f; do
	"$cp" "${opts[@]}" -f "$REPO/kunit/$f" || { note "checkpatch: kunit/$f"; bad=1; }
done < <(cd "$REPO/kunit" && find kernel -type f | LC_ALL=C sort)

[[ $bad -eq 0 ]] || exit 1
echo "checkpatch: clean (${#PATCHES[@]} patch(es), kunit/)"
