# SPDX-License-Identifier: GPL-2.0
"""The kernel tree and its steps (docs/harness.rst, "How a run goes"): the source package unpacked
under git once per package version, and the steps composed in a second worktree (so that a patch
that does not apply never touches the tree that is built). A new package version deletes the old
tree only if it holds nothing but what the harness made, else moves it aside. For the tests:
SCHED_TINIFY_TARBALL (default /usr/src/PKG.tar.xz), SCHED_TINIFY_PKG_VERSION (default
dpkg-query's).
"""

import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import List

from . import config, run

# Fixed identities and dates: the same inputs give the same commit ids.
IDENTITY = {f'GIT_{who}_{what}': value for who in ('AUTHOR', 'COMMITTER') for what, value in (
    ('NAME', 'sched-tinify'), ('EMAIL', 'sched-tinify@localhost'),
    ('DATE', '2017-05-29T21:03:02+0000'))}
# The committers of the harness's commits (mutant@: older harnesses').
OURS = ('sched-tinify@localhost', 'mutant@localhost')


class Red(Exception):
    """What is checked failed: a patch does not apply as posted (exit 1)."""


def note(text: str) -> None:
    print(f'sched_tinify: {text}', file=sys.stderr, flush=True)


def git(cwd: str, *argv: str, check: bool = True, **env: str) -> subprocess.CompletedProcess:
    """run.git() with the harness's identity."""
    return run.git(cwd, *argv, check=check, **IDENTITY, **env)


def user_work(tree: str, scratch: str) -> List[str]:
    """What @tree holds that the harness did not make (see the module's
    comment); a tree git cannot read is neither deleted nor moved."""
    if not os.path.lexists(tree):
        return []
    if not os.path.exists(os.path.join(tree, '.git')):
        return ['it is not a git repository']

    def probe(*argv: str) -> List[str]:
        proc = git(tree, *argv, check=False)
        if proc.returncode:
            raise run.HarnessError(
                f'cannot tell whether {tree} holds work of your own, git {" ".join(argv)} '
                f'failed: {proc.stderr.strip()} -- nothing was deleted or moved; repair or '
                f'move {tree} yourself')
        return proc.stdout.splitlines()

    top = probe('rev-parse', '--show-toplevel')[0]
    if not os.path.samefile(top, tree):
        raise run.HarnessError(f'{tree}/.git is the repository of {top}, not of {tree}: '
                               'nothing was deleted or moved; repair or move it yourself')
    pristine = git(tree, 'rev-parse', '-q', '--verify', 'refs/tags/pristine^{commit}',
                   check=False).stdout.split()
    reasons = []
    for ref in probe('for-each-ref', '--format=%(refname)'):
        if ref.startswith('refs/heads/'):
            reasons.append(f'local branch {ref[11:]}')
        elif ref == 'refs/stash':
            reasons.append(f'a stash of {len(probe("reflog", "show", "--format=%h", ref))} '
                           'change(s) (git stash list)')
        elif ref.startswith('refs/tags/') and ref != 'refs/tags/pristine':
            reasons.append(f'tag {ref[10:]}')
        elif not ref.startswith('refs/tags/'):
            reasons.append(f'ref {ref}')
    # Ignored files too (the kernel's .gitignore hides *.patch, *.orig...).
    status = probe('status', '--porcelain', '--ignored=matching', '--untracked-files=all')
    if status:
        reasons.append(f'{len(status)} uncommitted change(s) or untracked file(s) (git '
                       f'status), e.g. \'{status[0]}\'')
    for line in probe('worktree', 'list', '--porcelain'):
        path = line[9:] if line.startswith('worktree ') else ''
        if path and os.path.exists(path) and not any(
                os.path.exists(p) and os.path.samefile(path, p) for p in (tree, scratch)):
            reasons.append(f'worktree {path}')
    # --all covers the HEAD of every worktree, --reflog every entry.
    own = [c for c in probe('rev-list', '--all', '--reflog', '--format=%h %ce %s',
                            *(['--not'] + pristine if pristine else []))
           if not c.startswith('commit ') and (c.split() + ['', ''])[1] not in OURS]
    if own:
        reasons.append(f'{len(own)} commit(s) of your own (committer not the harness), e.g. '
                       + '; '.join(own[:3]))
    return reasons


def keep_aside(work: run.Work, reasons: List[str], stamp: str) -> None:
    """Move the tree to linux.<old-version>[.N] and say why and where."""
    old = re.sub(r'[^A-Za-z0-9.+~:_-]', '_', (config.read(stamp).splitlines() or [''])[0].strip()
                 if os.path.isfile(stamp) else '') or 'unknown'
    dest, n = os.path.join(work.work, work.pkg, f'linux.{old}'), 0
    while os.path.lexists(dest):
        n += 1
        dest = os.path.join(work.work, work.pkg, f'linux.{old}.{n}')
    note(f'{work.tree} holds work that the harness did not make:')
    for reason in reasons:
        note(f'  {reason}')
    try:
        os.rename(work.tree, dest)
    except OSError as e:
        raise run.HarnessError(f'cannot move {work.tree} to {dest} ({e}): nothing was deleted; '
                               'move it yourself') from e
    # The compose worktree is the harness's; other worktrees follow the move.
    shutil.rmtree(os.path.join(work.work, work.pkg, 'compose'), ignore_errors=True)
    if os.path.exists(os.path.join(dest, '.git')):
        git(dest, 'worktree', 'prune')
        git(dest, 'worktree', 'repair')
    note(f'moved it to {dest} instead of deleting it. Your work is there: git -C {dest} '
         'branch -a (and stash list, status, log --all); a commit on no branch: git -C '
         f'{dest} branch NAME SHA; fetch from it with git fetch {dest} BRANCH')


def unpack(work: run.Work, tarball: str, version: str, stamp: str) -> None:
    """A new tree from the tarball, committed and tagged pristine, with the compose worktree; the
    old tree deleted if the harness made all of it, else moved aside."""
    top = os.path.join(work.work, work.pkg)
    scratch = os.path.join(top, 'compose')
    reasons = user_work(work.tree, scratch)
    if reasons:
        keep_aside(work, reasons, stamp)
    elif os.path.lexists(work.tree):
        note(f'{work.tree} holds nothing but what the harness made: deleting it')
    # A new tree with the tarball's file times: no object may outlive it.
    config.remove(work.tree, scratch, os.path.join(top, 'build'), os.path.join(top, 'unpack'),
                  stamp)
    note(f'unpacking {tarball} ({work.pkg} {version}) into {work.tree}')
    new = os.path.join(top, 'unpack', work.pkg)
    os.makedirs(os.path.dirname(new))
    if subprocess.run(['tar', '-xJf', tarball, '-C', os.path.dirname(new)],
                      check=False).returncode or not os.path.isdir(new):
        raise run.HarnessError(f'cannot unpack {tarball} (its top folder must be {work.pkg})')
    # Committed before it is moved in: the tree is a whole tree or none.
    for argv in (['init', '-q'], ['config', 'gc.auto', '0'],
                 ['config', 'core.autocrlf', 'false'], ['add', '-A', '-f'],
                 ['commit', '-q', '-m', f'{work.pkg} {version} (pristine)'],
                 ['tag', '-f', 'pristine']):
        git(new, *argv)
    # Detached HEAD, no branch: a branch in the tree is someone's work.
    branch = git(new, 'symbolic-ref', 'HEAD').stdout.strip()
    git(new, 'checkout', '-q', '--detach')
    git(new, 'update-ref', '-d', branch)
    os.rename(new, work.tree)
    os.rmdir(os.path.dirname(new))
    git(work.tree, 'worktree', 'add', '-q', '--detach', scratch, 'pristine')
    config.write(stamp, f'{version}\n')


def lay_tests(cwd: str, base: str, message: str, hook: str) -> str:
    """A child commit of @base that adds kunit/'s test files at the same
    paths and applies the kernel's @hook (a path in the repository), made without a checkout."""
    src = os.path.join(config.REPO, 'kunit')
    files = config.test_files()
    if not files:
        raise run.HarnessError(f'no test files under {src}/kernel')
    with tempfile.NamedTemporaryFile() as index:
        def g(*argv: str, check: bool = True) -> str:
            proc = git(cwd, *argv, check=check, GIT_INDEX_FILE=index.name)
            return proc.stdout.strip() if check else str(proc.returncode)

        g('read-tree', base)
        for f in files:
            if g('cat-file', '-e', f'{base}:{f}', check=False) == '0':
                raise Red(f'{f} already exists in {base}: refusing to overwrite kernel code')
            blob = g('hash-object', '-w', f'--path={f}', '--', os.path.join(src, f))
            g('update-index', '--add', '--cacheinfo', f'100644,{blob},{f}')
        if g('apply', '--cached', '--whitespace=error-all', os.path.join(config.REPO, hook),
             check=False) != '0':
            raise Red(f'{hook} does not apply to {base}')
        return g('commit-tree', '-p', base, '-m', message, g('write-tree'))


def apply(cwd: str, path: str, what: str, below: str, exact: bool = True) -> None:
    """git am of one patch, exactly as posted (with @exact, a hunk at an
    offset is refused too), or Red."""
    check = git(cwd, 'apply', '--check', '--verbose', path, check=False)
    out = check.stdout + check.stderr
    if not check.returncode and not (exact and '(offset ' in out):
        am = git(cwd, 'am', '-q', '--committer-date-is-author-date', path, check=False)
        if not am.returncode:
            return
        out = am.stdout + am.stderr
        git(cwd, 'am', '--abort', check=False)
    print(out, file=sys.stderr)
    raise Red(f'{what} does not apply as posted on {below}; git said why above. The '
              'build tree was not touched.')


def prepare(work: run.Work) -> None:
    """Unpack the package if it is new, and compose the steps unless the
    steps file was made from the same inputs (see the module's comment)."""
    top = os.path.join(work.work, work.pkg)
    tarball = os.environ.get('SCHED_TINIFY_TARBALL', f'/usr/src/{work.pkg}.tar.xz')
    if not os.path.isfile(tarball):
        raise run.HarnessError(f'{tarball} not found: is the {work.pkg} package installed? '
                               '(scripts/deps.sh)')
    version = os.environ.get('SCHED_TINIFY_PKG_VERSION') or subprocess.run(
        ['dpkg-query', '-W', '-f=${Version}', work.pkg], capture_output=True, text=True,
        check=False).stdout.strip()
    if not version:
        raise run.HarnessError(f'cannot read the version of {work.pkg} (dpkg-query)')
    stamp = os.path.join(top, 'package-version')
    scratch = os.path.join(top, 'compose')
    os.makedirs(top, exist_ok=True)
    run.take_off(work)  # before unpack() could call a mutant the user's work
    stamped = config.read(stamp).strip() if os.path.isfile(stamp) else ''
    if stamped != version or not os.path.isdir(work.tree) or git(
            work.tree, 'rev-parse', '-q', '--verify', 'refs/tags/pristine',
            check=False).returncode:
        unpack(work, tarball, version, stamp)
    elif not os.path.isdir(scratch):
        note(f'no {scratch}: adding it to {work.tree} again')
        git(work.tree, 'worktree', 'prune')
        git(work.tree, 'worktree', 'add', '-q', '--detach', scratch, 'pristine')
    compose(work, version, scratch)


def compose(work: run.Work, version: str, scratch: str) -> None:
    """The steps file and the upstream-form commit, from the same inputs
    the same commits (fixed identities and dates)."""
    patches = config.read_series(work.series)
    upstream_patches = sorted(glob.glob(os.path.join(work.series, 'kunit', '*.patch')))
    hook = work.kernel.hook
    tests = [os.path.join(config.REPO, p) for p in [hook] + [
        os.path.join('kunit', f) for f in config.test_files()]]
    digest = hashlib.sha256(f'{version} {git(work.tree, "rev-parse", "pristine").stdout}'
                            f'{patches}'.encode())
    for path in [__file__] + [os.path.join(work.series, p) for p in patches] + \
            upstream_patches + tests:
        digest.update(f'{os.path.relpath(path, config.REPO)} {config.file_digest(path)}\n'
                      .encode())
    key = digest.hexdigest()
    steps_file, upstream = work.steps_file, os.path.join(os.path.dirname(work.steps_file),
                                                         'upstream-kunit')
    try:
        shas = [line.split()[1] for line in config.read(steps_file).splitlines()]
        extra = [config.read(upstream).strip()] if os.path.exists(upstream) else []
        if config.read(steps_file + '.key').strip() == key and shas and all(
                not git(work.tree, 'cat-file', '-e', f'{s}^{{commit}}', check=False).returncode
                for s in shas + extra):
            note(f'{work.pkg} {version}: {len(shas)} step(s) up to date in {steps_file}')
            return
    except (OSError, IndexError):
        pass
    # No steps file until every step is composed.
    config.remove(steps_file, steps_file + '.key', upstream)
    git(scratch, 'am', '--abort', check=False)
    git(scratch, 'checkout', '-q', '-f', '--detach', 'pristine')
    git(scratch, 'clean', '-q', '-f', '-d', '-x')
    series, names = [git(scratch, 'rev-parse', 'HEAD').stdout.strip()], ['00-baseline']
    for n, patch in enumerate(patches, 1):
        apply(scratch, os.path.join(work.series, patch), f'patch {n} ({patch})',
              f'the pristine tree plus patches 1..{n - 1}')
        series.append(git(scratch, 'rev-parse', 'HEAD').stdout.strip())
        names.append(f'{n:02d}-{re.sub(r"^[0-9]{4}-|[.]patch$", "", patch)}')
    message = 'sched-tinify: the KUnit tests from kunit/ on {}'
    steps = [f'{n} {lay_tests(scratch, sha, message.format(n), hook)}'
             for n, sha in zip(names, series)]
    # The upstream-form patches (SERIES/kunit/*.patch): on the pristine
    # tree alone; the upstream target runs that commit.
    if upstream_patches:
        git(scratch, 'checkout', '-q', '-f', '--detach', 'pristine')
        for path in upstream_patches:
            apply(scratch, path, os.path.relpath(path, config.REPO), 'the pristine tree', False)
        config.write(upstream, git(scratch, 'rev-parse', 'HEAD').stdout)
    config.write(steps_file, ''.join(f'{s}\n' for s in steps))
    config.write(steps_file + '.key', f'{key}\n')
    note(f'{work.pkg} {version}: {len(steps)} step(s) ready in {steps_file}' +
         (f', and the upstream-form tests ({len(upstream_patches)} patch(es))'
          if upstream_patches else ''))
