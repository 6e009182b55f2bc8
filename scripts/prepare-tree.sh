#!/usr/bin/env bash
# Unpack the kernel source package into the work folder (once per package
# version), keep it under git, and compose the steps: step 0 is the
# pristine tree, step N the pristine tree plus patches 1..N of the series
# applied with git am exactly as posted (no offset); the commit tested at
# a step is that step plus one commit that installs kunit/ on top of it.
# Writes "NN-name sha" lines, with that tested commit, to $STEPS_FILE.
#
# The steps are composed in a scratch worktree; the build tree ($TREE) is
# never touched here, so a patch that does not apply leaves it as it was.
#
# A new package version means a new tree. The old one is deleted only when
# it holds nothing but what the scripts made (the pristine commit, step
# commits, detached HEADs); a tree with work of your own in it (branches,
# stashes, tags, changes, commits of your own) is moved aside to
# linux.<old-version> and the reasons are printed.
#
# Usage: scripts/prepare-tree.sh
#
# Environment, for the tests (besides lib.sh's):
#   SCHED_TINIFY_TARBALL      the package's tarball, whose top folder is $PKG
#                             (default /usr/src/$PKG.tar.xz)
#   SCHED_TINIFY_PKG_VERSION  its Debian version (default: dpkg-query's)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
lock_work

# Fixed identities and dates: the same inputs give the same commit ids.
export GIT_AUTHOR_NAME="sched-tinify" GIT_AUTHOR_EMAIL="sched-tinify@localhost"
export GIT_COMMITTER_NAME="sched-tinify" GIT_COMMITTER_EMAIL="sched-tinify@localhost"
export GIT_AUTHOR_DATE="2017-05-29T21:03:02+0000"
export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"

tarball=${SCHED_TINIFY_TARBALL:-/usr/src/$PKG.tar.xz}
[[ -f $tarball ]] || die "$tarball not found: is the $PKG package installed? (scripts/deps.sh)"
if [[ -n ${SCHED_TINIFY_PKG_VERSION:-} ]]; then
	debver=$SCHED_TINIFY_PKG_VERSION
else
	debver=$(dpkg-query -W -f='${Version}' "$PKG") || die "cannot read the version of $PKG"
fi
stamp=$WORK/$PKG/package-version
# The committers of the scripts' commits: this script and scripts/mutants.sh.
OURS="sched-tinify@localhost mutant@localhost"

# git_tree ARGS...: git in $TREE, never in a repository above it.
git_tree() {
	GIT_CEILING_DIRECTORIES=$WORK/$PKG git -C "$TREE" "$@" </dev/null
}

# probe OUT ARGS...: git ARGS in $TREE, output to the file OUT. When git
# fails, stop with its words: a tree git cannot read is not deleted.
probe() {
	local out=$1
	shift
	git_tree "$@" >"$out" 2>"$tmp/err" ||
		die "cannot tell whether $TREE holds work of your own, git $* failed: $(tr '\n' ' ' <"$tmp/err")-- nothing was deleted or moved; repair or move $TREE yourself"
}

# init_branch REF: true when REF is the branch that git init left in a tree
# unpacked by an older version of this script: at pristine, and moved by
# nothing but the commit of the pristine tree.
init_branch() {
	[[ ${#pristine[@]} -eq 2 ]] || return 1
	probe "$tmp/branch" rev-parse --verify "$1^{commit}"
	[[ $(<"$tmp/branch") == "${pristine[1]}" ]] || return 1
	probe "$tmp/log" reflog show --format='%ge %gs' "$1"
	[[ $(wc -l <"$tmp/log") -eq 1 &&
		$(<"$tmp/log") == "sched-tinify@localhost commit (initial): $PKG "*" (pristine)" ]]
}

# user_work: set REASONS to what $TREE holds that the scripts did not make.
# They make the commit tagged pristine, the step commits (committed by one
# of $OURS) and the detached HEADs of $TREE and $SCRATCH; builds go to
# $BUILD, so $TREE is clean. Anything else is someone's work: branches,
# stashes, other refs, changes, worktrees, commits of their own (on any
# ref, worktree HEAD or reflog entry).
user_work() {
	local ref key path n pristine=()
	REASONS=()
	[[ -e $TREE || -L $TREE ]] || return 0
	if [[ ! -e $TREE/.git ]]; then
		REASONS+=("it is not a git repository")
		return 0
	fi
	tmp=$(mktemp -d) || die "cannot make a temporary folder"
	trap 'rm -rf "$tmp"' EXIT
	probe "$tmp/top" rev-parse --show-toplevel
	[[ $(<"$tmp/top") -ef $TREE ]] ||
		die "$TREE/.git is the repository of $(<"$tmp/top"), not of $TREE: nothing was deleted or moved; repair or move $TREE yourself"
	if git_tree rev-parse -q --verify 'refs/tags/pristine^{commit}' >"$tmp/pristine"; then
		pristine=(--not "$(<"$tmp/pristine")")
	fi

	probe "$tmp/refs" for-each-ref --format='%(refname)'
	while read -r ref; do
		case $ref in
		refs/tags/pristine) ;;
		refs/heads/*) init_branch "$ref" || REASONS+=("local branch ${ref#refs/heads/}") ;;
		refs/stash)
			probe "$tmp/stash" reflog show --format=%h refs/stash
			REASONS+=("a stash of $(wc -l <"$tmp/stash") change(s) (git stash list)")
			;;
		refs/tags/*) REASONS+=("tag ${ref#refs/tags/}") ;;
		*) REASONS+=("ref $ref") ;;
		esac
	done <"$tmp/refs"

	# Ignored files too (the kernel's .gitignore hides *.patch, patches/,
	# *.orig, tags...), whatever the user's status.showUntrackedFiles.
	probe "$tmp/status" status --porcelain --ignored=matching --untracked-files=all
	n=$(wc -l <"$tmp/status")
	[[ $n -eq 0 ]] ||
		REASONS+=("$n uncommitted change(s) or untracked file(s) (git status), e.g. '$(head -n 1 "$tmp/status")'")

	probe "$tmp/worktrees" worktree list --porcelain
	while read -r key path; do
		[[ $key == worktree && -e $path ]] || continue
		[[ $path -ef $TREE || $path -ef $SCRATCH ]] || REASONS+=("worktree $path")
	done <"$tmp/worktrees"

	# --all covers the HEAD of every worktree, --reflog every entry.
	probe "$tmp/commits" rev-list --all --reflog --format='%h %ce %s' "${pristine[@]}"
	n=$(awk -v ours="$OURS" '
		BEGIN { split(ours, o, " "); for (i in o) our[o[i]] = 1 }
		/^commit / || ($2 in our) { next }
		{ n++; if (n <= 3) { ex = ex sep $0; sep = "; " } }
		END { if (n) printf "%d commit(s) of your own (committer neither %s nor %s), e.g. %s\n", n, o[1], o[2], ex }
		' "$tmp/commits")
	[[ -z $n ]] || REASONS+=("$n")

	rm -rf "$tmp"
	trap - EXIT
}

# keep_aside: move $TREE to linux.<old-version>, or linux.<old-version>.N
# when that is taken, and say why and where.
keep_aside() {
	local old=unknown dest n=0 reason
	[[ -s $stamp ]] && old=$(head -n 1 "$stamp")
	old=${old//[^A-Za-z0-9.+~:_-]/_}
	dest=$WORK/$PKG/linux.${old:-unknown}
	while [[ -e $dest || -L $dest ]]; do
		n=$((n + 1))
		dest=$WORK/$PKG/linux.${old:-unknown}.$n
	done
	note "$TREE holds work that the scripts did not make:"
	for reason in "${REASONS[@]}"; do
		note "  $reason"
	done
	mv -T -- "$TREE" "$dest" ||
		die "cannot move $TREE to $dest: nothing was deleted; move it yourself, then run ${0##*/} again"
	# The compose worktree is the scripts'; other worktrees follow the move.
	rm -rf "$SCRATCH" || die "cannot delete $SCRATCH (the tree is safe in $dest)"
	if [[ -e $dest/.git ]]; then
		{ git -C "$dest" worktree prune && git -C "$dest" worktree repair; } </dev/null ||
			die "cannot prune the worktrees of $dest (the tree is safe there): git -C $dest worktree prune; run ${0##*/} again"
	fi
	note "moved it to $dest instead of deleting it. Your work is there: git -C $dest branch -a (and stash list, status, log --all); a commit on no branch: git -C $dest branch NAME SHA; fetch from it with git fetch $dest BRANCH"
}

# unpack: a new tree from the tarball, committed and tagged pristine, with
# the compose worktree. The old tree is deleted if the scripts made all of
# it, else moved aside.
unpack() {
	local new=$WORK/$PKG/unpack/$PKG branch
	user_work
	if [[ ${#REASONS[@]} -gt 0 ]]; then
		keep_aside
	elif [[ -e $TREE || -L $TREE ]]; then
		note "$TREE holds nothing but what the scripts made: deleting it"
	fi
	# A new tree with the tarball's file times: no object may outlive it.
	rm -rf "$TREE" "$SCRATCH" "$BUILD" "$WORK/$PKG/unpack" "$stamp" ||
		die "cannot delete the old tree $TREE and its build folders"
	note "unpacking $tarball ($PKG $debver) into $TREE"
	mkdir -p "$WORK/$PKG/unpack"
	tar -xJf "$tarball" -C "$WORK/$PKG/unpack" || die "cannot unpack $tarball"
	[[ -d $new ]] || die "$tarball has no top folder $PKG"
	# Committed before it is moved in: $TREE is a whole tree or none.
	git -C "$new" init -q || die "cannot make a git repository in $new"
	git -C "$new" config gc.auto 0
	git -C "$new" config core.autocrlf false
	# -f: the tarball's files are the pristine tree, ignored names included.
	git -C "$new" add -A -f || die "cannot add the files of $new to git"
	git -C "$new" commit -q -m "$PKG $debver (pristine)" || die "cannot commit $new"
	git -C "$new" tag -f pristine >/dev/null || die "cannot tag pristine in $new"
	# Detached HEAD, no branch: a branch in $TREE is someone's work.
	branch=$(git -C "$new" symbolic-ref HEAD) || die "no branch to detach from in $new"
	git -C "$new" checkout -q --detach || die "cannot detach HEAD in $new"
	git -C "$new" update-ref -d "$branch" || die "cannot delete $branch in $new"
	mv -T -- "$new" "$TREE" || die "cannot move $new to $TREE"
	rmdir "$WORK/$PKG/unpack"
	git -C "$TREE" worktree add -q --detach "$SCRATCH" pristine ||
		die "cannot add the worktree $SCRATCH to $TREE"
	printf '%s\n' "$debver" >"$stamp"
}

mkdir -p "$WORK/$PKG"
if [[ ! -f $stamp || $(cat "$stamp") != "$debver" ]] ||
	! git_tree rev-parse -q --verify refs/tags/pristine >/dev/null 2>&1; then
	unpack
elif [[ ! -d $SCRATCH ]]; then
	# Only the compose worktree is gone: add it again, keep the tree.
	note "no $SCRATCH: adding it to $TREE again"
	if ! { git_tree worktree prune && git_tree worktree add -q --detach "$SCRATCH" pristine; }; then
		die "cannot add the worktree $SCRATCH to $TREE"
	fi
fi

series_dir=$(series_dir)
series_patches "$series_dir"

# What the steps are made of: the pristine commit, the series, the
# upstream-form patches, kunit/ and the two scripts that compose them. A
# steps file made from the same inputs is kept (fixed identities and
# dates: composing again would give the same commits).
compose_key() {
	local -a files=("$REPO/scripts/prepare-tree.sh" "$REPO/scripts/install-kunit.sh")
	local f
	for f in "${PATCHES[@]}"; do files+=("$series_dir/$f"); done
	shopt -s nullglob
	files+=("$series_dir"/kunit/*.patch)
	shopt -u nullglob
	{
		printf '%s %s\n' "$debver" "$(git_tree rev-parse pristine)"
		printf '%s\n' "${PATCHES[@]}"
		for f in "${files[@]}"; do
			printf '%s ' "${f##*/}"
			sha256sum <"$f"
		done
		(cd "$REPO" && find kunit/hook.patch kunit/kernel -type f -print0 | sort -z |
			xargs -0 sha256sum)
	} | sha256sum | cut -d' ' -f1
}
# The upstream-form commit, beside the steps file (a throw-away series'
# steps file has its own).
upstream=$(dirname "$STEPS_FILE")/upstream-kunit
# Every commit the steps file names (and the upstream-form one) is there.
steps_exist() {
	local _ sha
	while read -r _ sha; do
		git_tree cat-file -e "$sha^{commit}" 2>/dev/null || return 1
	done <"$STEPS_FILE"
	[[ ! -e $upstream ]] ||
		git_tree cat-file -e "$(cat "$upstream")^{commit}" 2>/dev/null
}
key=$(compose_key) || die "cannot read the inputs of the steps"
if [[ -s $STEPS_FILE && -f $STEPS_FILE.key && $(cat "$STEPS_FILE.key") == "$key" ]] &&
	steps_exist; then
	note "$PKG $debver: $(wc -l <"$STEPS_FILE") step(s) up to date in $STEPS_FILE"
	exit 0
fi

# Start the composition from the pristine commit, whatever was left there;
# no steps file until every step is composed.
rm -f "$STEPS_FILE" "$STEPS_FILE.key"
cd "$SCRATCH"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f --detach pristine
git clean -q -f -d -x

# The series exactly as posted: the pristine tree, then patches 1..N with
# git am. A hunk that only applies at another line than the patch says
# (git apply's "offset") is refused too: the series must apply to the
# tree its users have as it is.
series=("$(git rev-parse HEAD)")
names=(00-baseline)
n=0
for patch in "${PATCHES[@]}"; do
	n=$((n + 1))
	file=$series_dir/$patch
	[[ -f $file ]] || die "series names $patch, but $file does not exist"
	if ! out=$(git apply --check --verbose "$file" 2>&1) || [[ $out == *"(offset "* ]]; then
		printf '%s\n' "$out" >&2
		red "patch $n ($patch) does not apply as posted on the pristine tree plus patches 1..$((n - 1)); git apply said why above. The build tree was not touched."
	fi
	if ! out=$(git am -q --committer-date-is-author-date "$file" 2>&1); then
		printf '%s\n' "$out" >&2
		git am --abort >/dev/null 2>&1 || true
		red "patch $n ($patch) does not apply on the pristine tree plus patches 1..$((n - 1)); git am said why above. The build tree was not touched."
	fi
	name=${patch%.patch}
	name=${name#[0-9][0-9][0-9][0-9]-}
	series+=("$(git rev-parse HEAD)")
	names+=("$(printf '%02d' "$n")-$name")
done

# The tests are laid on top of each step afterwards: the commit a cell
# builds at step N is step N plus one commit that installs kunit/ (made
# without a checkout, scripts/install-kunit.sh).
steps=()
for i in "${!series[@]}"; do
	sha=$("$REPO/scripts/install-kunit.sh" "$SCRATCH" "${series[$i]}" \
		"sched-tinify: the KUnit tests from kunit/ on ${names[$i]}") ||
		red "cannot lay kunit/ on ${names[$i]} (see above). The build tree was not touched."
	steps+=("${names[$i]} $sha")
done

# The upstream-form KUnit patches (<series>/kunit/*.patch): on the pristine
# tree alone, without kunit/ or the series; the upstream target runs
# that commit.
rm -f "$upstream"
shopt -s nullglob
upstream_patches=("$series_dir"/kunit/*.patch)
shopt -u nullglob
if [[ ${#upstream_patches[@]} -gt 0 ]]; then
	git checkout -q -f --detach pristine
	for file in "${upstream_patches[@]}"; do
		if ! out=$(git am -q --committer-date-is-author-date "$file" 2>&1); then
			printf '%s\n' "$out" >&2
			git am --abort >/dev/null 2>&1 || true
			red "${file#"$REPO"/} does not apply on the pristine tree; git am said why above. The build tree was not touched."
		fi
	done
	git rev-parse HEAD >"$upstream"
fi

printf '%s\n' "${steps[@]}" >"$STEPS_FILE.tmp"
mv "$STEPS_FILE.tmp" "$STEPS_FILE"
printf '%s\n' "$key" >"$STEPS_FILE.key"
note "$PKG $debver: ${#steps[@]} step(s) ready in $STEPS_FILE${upstream_patches:+, and the upstream-form tests (${#upstream_patches[@]} patch(es))}"
