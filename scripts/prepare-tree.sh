#!/usr/bin/env bash
# Unpack the kernel source package into the work folder (once per package
# version), keep it under git, and compose the steps: the pristine tree,
# one commit that installs kunit/, then one commit per patch of the series
# applied with git am.  Writes "NN-name sha" lines to $STEPS_FILE.
#
# The steps are composed in a scratch worktree; the build tree ($TREE) is
# never touched here, so a patch that does not apply leaves it as it was.
#
# Usage: scripts/prepare-tree.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

# Fixed identities and dates: the same inputs give the same commit ids.
export GIT_AUTHOR_NAME="sched-tinify" GIT_AUTHOR_EMAIL="sched-tinify@localhost"
export GIT_COMMITTER_NAME="sched-tinify" GIT_COMMITTER_EMAIL="sched-tinify@localhost"
export GIT_AUTHOR_DATE="2017-05-29T21:03:02+0000"
export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"

tarball=/usr/src/$PKG.tar.xz
[[ -f $tarball ]] || die "$tarball not found: is the $PKG package installed? (scripts/deps.sh)"
debver=$(dpkg-query -W -f='${Version}' "$PKG") || die "cannot read the version of $PKG"
stamp=$WORK/$PKG/package-version

unpack() {
	note "unpacking $tarball ($PKG $debver) into $TREE"
	# A new tree with the tarball's file times: no object may outlive it.
	rm -rf "$TREE" "$SCRATCH" "$BUILD" "$WORK/$PKG/unpack"
	mkdir -p "$WORK/$PKG/unpack"
	tar -xJf "$tarball" -C "$WORK/$PKG/unpack" || die "cannot unpack $tarball"
	mv "$WORK/$PKG/unpack/$PKG" "$TREE"
	rmdir "$WORK/$PKG/unpack"
	git -C "$TREE" init -q
	git -C "$TREE" config gc.auto 0
	git -C "$TREE" config core.autocrlf false
	# -f: the tarball's files are the pristine tree, ignored names included.
	git -C "$TREE" add -A -f
	git -C "$TREE" commit -q -m "$PKG $debver (pristine)"
	git -C "$TREE" tag -f pristine >/dev/null
	git -C "$TREE" worktree add -q --detach "$SCRATCH" pristine
	printf '%s\n' "$debver" >"$stamp"
}

mkdir -p "$WORK/$PKG"
if [[ ! -f $stamp || $(cat "$stamp") != "$debver" ]] ||
	! git -C "$TREE" rev-parse -q --verify pristine >/dev/null ||
	[[ ! -d $SCRATCH ]]; then
	unpack
fi

series_dir=$(series_dir)
series_patches "$series_dir"

# Start the composition from the pristine commit, whatever was left there;
# no steps file until every step is composed.
rm -f "$STEPS_FILE"
cd "$SCRATCH"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f --detach pristine
git clean -q -f -d -x

"$REPO/scripts/install-kunit.sh" "$SCRATCH"
git add -A -f
git commit -q -m "sched-tinify: install the KUnit tests from kunit/"

steps=("00-baseline $(git rev-parse HEAD)")
n=0
for patch in "${PATCHES[@]}"; do
	n=$((n + 1))
	file=$series_dir/$patch
	[[ -f $file ]] || die "series names $patch, but $file does not exist"
	if ! out=$(git am -q --committer-date-is-author-date "$file" 2>&1); then
		printf '%s\n' "$out" >&2
		git am --abort >/dev/null 2>&1 || true
		die "patch $n ($patch) does not apply on step $((n - 1)) (${steps[-1]}); git am said why above. The build tree was not touched."
	fi
	name=${patch%.patch}
	name=${name#[0-9][0-9][0-9][0-9]-}
	steps+=("$(printf '%02d' "$n")-$name $(git rev-parse HEAD)")
done

printf '%s\n' "${steps[@]}" >"$STEPS_FILE.tmp"
mv "$STEPS_FILE.tmp" "$STEPS_FILE"
note "$PKG $debver: ${#steps[@]} step(s) ready in $STEPS_FILE"
