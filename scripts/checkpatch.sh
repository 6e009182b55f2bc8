#!/usr/bin/env bash
# Run each kernel's scripts/checkpatch.pl --strict on every patch of its
# series, on its upstream-form test patches (<series>/kunit/), on its hook
# and on every file under kunit/kernel.
#
# Usage: scripts/checkpatch.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

export PATH=/usr/bin:$PATH
bad=0
body() { sed -n '/^#include/,$p'; }
kernels=$(tinify_info kernels) || exit 2
while read -r pkg _; do
	tree=$WORK/$pkg/linux cp=$WORK/$pkg/linux/scripts/checkpatch.pl
	[[ -x $cp ]] || die "no $cp: run scripts/matrix.sh --prepare-only first"
	opts=(--strict --no-summary --quiet --show-types --root="$tree")
	series=$(tinify_info series --kernel "$pkg") || exit 2
	hook=$(tinify_info hook --kernel "$pkg") || exit 2
	out=$(tinify_info patches --kernel "$pkg") || exit 2
	patches=()
	[[ -z $out ]] || mapfile -t patches <<<"$out"
	for patch in "${patches[@]}"; do
		"$cp" "${opts[@]}" "$series/$patch" || { note "checkpatch: $pkg: $patch"; bad=1; }
	done
	for patch in "$series"/kunit/*.patch; do
		[[ -f $patch ]] || continue
		"$cp" "${opts[@]}" --ignore FILE_PATH_CHANGES "$patch" ||
			{ note "checkpatch: ${patch#"$REPO"/}"; bad=1; }
		while read -r f; do
			got=$(sed -n "\|^+++ b/$f\$|,/^diff --git/{s/^+//p}" "$patch" | body)
			for suite in "$REPO"/kunit/kernel/sched/*_test.c; do
				[[ $(body <"$suite") == "$got" ]] && continue 2
			done
			note "${patch#"$REPO"/}: its $f is no suite of kunit/kernel/sched/"; bad=1
		done < <(sed -n 's|^+++ b/\(.*_test\.c\)$|\1|p' "$patch")
	done
	"$cp" "${opts[@]}" "$REPO/$hook" || { note "checkpatch: $hook"; bad=1; }
	while read -r f; do
		"$cp" "${opts[@]}" -f "$REPO/kunit/$f" || { note "checkpatch: $pkg: kunit/$f"; bad=1; }
	done < <(cd "$REPO/kunit" && find kernel -type f | LC_ALL=C sort)
	[[ $bad -eq 0 ]] || continue
	echo "checkpatch: $pkg: clean (${#patches[@]} patch(es), its hook, kunit/)"
done <<<"$kernels"
exit "$bad"
