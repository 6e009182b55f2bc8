# SPDX-License-Identifier: GPL-2.0
"""Tests of sched_tinify/tree.py (python3 -m sched_tinify prepare) on a
fake package (tests/faketree.py).

A new package version must never delete work: a tree with anything in it
the harness did not make is moved to linux.<old-version>, not deleted.
"""

import os
import re
import shutil
import unittest

try:
    from tests import faketree
except ImportError:  # discovered with scripts/tests as the top folder
    import faketree

# Someone's own identity, not the scripts'.
USER = {'GIT_AUTHOR_NAME': 'Dev', 'GIT_AUTHOR_EMAIL': 'dev@example.org',
        'GIT_COMMITTER_NAME': 'Dev', 'GIT_COMMITTER_EMAIL': 'dev@example.org'}


class PrepareTreeTest(unittest.TestCase):

    def setUp(self):
        faketree.require_tools()
        self.pkg = faketree.FakePackage()
        self.addCleanup(self.pkg.cleanup)
        self.user_env = dict(os.environ, **USER)

    def prepare(self, ok=True):
        proc = self.pkg.prepare()
        if ok:
            self.assertEqual(proc.returncode, 0, proc.stderr)
        return proc

    def user_git(self, *args, cwd=None):
        return self.pkg.git(*args, cwd=cwd, env=self.user_env)

    def aside(self):
        return sorted(n for n in os.listdir(self.pkg.pkg_dir) if n.startswith('linux.'))

    def assert_fresh(self):
        """The tree is the package's current version, as the scripts made it."""
        pkg = self.pkg
        self.assertEqual(pkg.git('for-each-ref', '--format=%(refname)'), 'refs/tags/pristine')
        self.assertEqual(pkg.git('log', '-1', '--format=%s', 'pristine'),
                         f'{pkg.pkg} {pkg.version} (pristine)')
        self.assertEqual(pkg.git('symbolic-ref', '-q', 'HEAD', check=False), '',
                         'HEAD is not detached')
        self.assertEqual(pkg.git('status', '--porcelain'), '')
        with open(os.path.join(pkg.tree, 'Makefile'), encoding='utf-8') as f:
            self.assertIn(f'SUBLEVEL = {pkg.sublevel}\n', f.read())
        with open(pkg.stamp, encoding='utf-8') as f:
            self.assertEqual(f.read(), f'{pkg.version}\n')
        with open(pkg.steps_file, encoding='utf-8') as f:
            self.assertRegex(f.read(), r'\A00-baseline [0-9a-f]{40}\n\Z')
        self.assertTrue(os.path.isfile(os.path.join(pkg.scratch, '.git')))

    def assert_moved(self, proc, old_version, reason, suffix=''):
        """The old tree is at linux.OLD_VERSION[SUFFIX], and the note says
        REASON (a regex) and where it went. Returns the moved tree."""
        moved = os.path.join(self.pkg.pkg_dir, f'linux.{old_version}{suffix}')
        self.assertTrue(os.path.isdir(moved), f'{moved} missing: {proc.stderr}')
        self.assertRegex(proc.stderr, reason)
        self.assertIn(f'moved it to {moved}', proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.pkg.pkg_dir, 'unpack')))
        self.assert_fresh()
        return moved

    def bump(self):
        """A new package version; returns the old one."""
        old = self.pkg.version
        self.pkg.bump_version()
        return old

    def test_first_prepare(self):
        proc = self.prepare()
        self.assertIn('unpacking', proc.stderr)
        self.assertTrue(os.path.isfile(os.path.join(self.pkg.tree, 'Makefile')))
        self.assert_fresh()
        self.assertIn('SUBLEVEL = 192\n', self.pkg.git('show', 'pristine:Makefile'))

    def write_series(self, *patches):
        """Make PATCHES (file name, text) the fake package's series."""
        for name, text in patches:
            with open(os.path.join(self.pkg.series, name), 'w', encoding='utf-8') as f:
                f.write(text)
        with open(os.path.join(self.pkg.series, 'series'), 'w', encoding='utf-8') as f:
            f.write(''.join(f'{name}\n' for name, _ in patches))

    @staticmethod
    def patch(subject, body):
        """A git am-able patch of the Makefile: BODY is its diff hunks."""
        return (f'From: Dev <dev@example.org>\nDate: Thu, 3 Dec 2026 06:18:33 +0000\n'
                f'Subject: [PATCH] {subject}\n\n{subject}.\n\n'
                f'Signed-off-by: Dev <dev@example.org>\n---\n'
                f'diff --git a/Makefile b/Makefile\n--- a/Makefile\n+++ b/Makefile\n{body}')

    def test_steps_are_the_series_with_the_tests_on_top(self):
        """Step N is pristine plus patches 1..N as posted; the tests are a
        commit of their own on top of each step, never under the series."""
        pkg = self.pkg
        self.write_series(
            ('0001-a.patch', self.patch('Name A', '@@ -6 +6 @@\n-NAME = Fake\n+NAME = A\n')),
            ('0002-b.patch', self.patch('Name B', '@@ -6 +6 @@\n-NAME = A\n+NAME = B\n')))
        self.prepare()
        with open(pkg.steps_file, encoding='utf-8') as f:
            steps = [line.split() for line in f]
        self.assertEqual([name for name, _ in steps], ['00-baseline', '01-a', '02-b'])
        below = pkg.git('rev-parse', 'pristine')
        for (name, sha), subject in zip(steps, ['', 'Name A', 'Name B']):
            series = pkg.git('rev-parse', f'{sha}^')
            self.assertEqual(pkg.git('rev-parse', f'{series}^') if subject else series, below,
                             f'{name}: not the step below plus one patch')
            if subject:
                self.assertEqual(pkg.git('log', '-1', '--format=%s', series), subject)
            below = series
            # The series commits have no test file; the tested commit adds
            # kunit/ and the hook, and nothing else.
            self.assertEqual(pkg.git('ls-tree', '-r', '--name-only', series, 'kernel/sched/'),
                             'kernel/sched/build_policy.c')
            added = pkg.git('diff', '--name-only', series, sha).split('\n')
            self.assertIn('kernel/sched/build_kunit.c', added)
            self.assertIn('kernel/sched/build_policy.c', added)
            self.assertIn('lib/Kconfig.debug', added)
            self.assertEqual(sorted(f for f in added if not f.startswith('kernel/sched/')),
                             ['lib/Kconfig.debug'])

    def test_steps_from_the_same_inputs_are_kept(self):
        """A second run with the same series and tests keeps the steps; a
        changed patch, or a step commit gone, composes them again."""
        pkg = self.pkg
        self.write_series(('0001-a.patch', self.patch('Name A', '@@ -6 +6 @@\n-NAME = Fake\n'
                                                                 '+NAME = A\n')))
        self.prepare()
        with open(pkg.steps_file, encoding='utf-8') as f:
            first = f.read()
        proc = self.prepare()
        self.assertIn('2 step(s) up to date', proc.stderr)
        with open(pkg.steps_file, encoding='utf-8') as f:
            self.assertEqual(f.read(), first)
        self.write_series(('0001-a.patch', self.patch('Name A2', '@@ -6 +6 @@\n-NAME = Fake\n'
                                                                  '+NAME = A\n')))
        proc = self.prepare()
        self.assertIn('2 step(s) ready', proc.stderr)
        with open(pkg.steps_file, encoding='utf-8') as f:
            second = f.read()
        self.assertNotEqual(second, first)
        self.assertEqual(pkg.git('log', '-1', '--format=%s', second.split()[-1] + '^'),
                         'Name A2')
        # A step commit that is no longer there (a pruned tree): composed again.
        with open(pkg.steps_file, 'w', encoding='utf-8') as f:
            f.write(second.replace(second.split()[-1], '0' * 40))
        proc = self.prepare()
        self.assertIn('2 step(s) ready', proc.stderr)
        with open(pkg.steps_file, encoding='utf-8') as f:
            self.assertEqual(f.read(), second)

    def test_patch_applying_at_an_offset_is_refused(self):
        """Applies with git am, but not at the line it says: not as posted."""
        self.write_series(('0001-a.patch', self.patch('Name A', '@@ -4 +4 @@\n-NAME = Fake\n'
                                                                 '+NAME = A\n')))
        proc = self.prepare(ok=False)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn('offset', proc.stderr)
        self.assertRegex(proc.stderr, r'error: patch 1 \(0001-a.patch\) does not apply as '
                                      r'posted on the pristine tree')
        self.assertFalse(os.path.exists(self.pkg.steps_file))

    def test_upstream_form_patch_at_an_offset_applies(self):
        """The upstream-form tests are made for upstream: git am as it
        applies them, an offset included (the series' rule is not theirs)."""
        os.makedirs(os.path.join(self.pkg.series, 'kunit'))
        with open(os.path.join(self.pkg.series, 'kunit', '0001-up.patch'), 'w',
                  encoding='utf-8') as f:
            f.write(self.patch('Up', '@@ -4 +4 @@\n-NAME = Fake\n+NAME = Up\n'))
        proc = self.prepare()
        self.assertIn('the upstream-form tests (1 patch(es))', proc.stderr)
        with open(os.path.join(self.pkg.pkg_dir, 'upstream-kunit'), encoding='utf-8') as f:
            self.assertEqual(self.pkg.git('log', '-1', '--format=%s', f.read().strip()), 'Up')

    def test_patch_on_the_test_hook_is_refused(self):
        """A patch made on top of the tests (its context is the hook's
        line) does not apply to the tree its users have."""
        body = ('@@ -53,3 +53,4 @@\n /* kernel/sched/build_policy.c:53 */\n+/* new */\n \n'
                ' /* KUnit tests of the scheduling classes (sched-tinify, kunit/). */\n')
        text = self.patch('Hook', '').replace('Makefile', 'kernel/sched/build_policy.c') + body
        self.write_series(('0001-hook.patch', text))
        proc = self.prepare(ok=False)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn('patch 1 (0001-hook.patch) does not apply as posted', proc.stderr)
        self.assertFalse(os.path.exists(self.pkg.steps_file))

    def test_series_file_named_like_a_test_is_not_overwritten(self):
        """A patch that adds a file kunit/ would install: the tests are not
        laid over kernel code."""
        text = ('From: Dev <dev@example.org>\nDate: Thu, 3 Dec 2026 06:18:33 +0000\n'
                'Subject: [PATCH] Mine\n\nMine.\n\nSigned-off-by: Dev <dev@example.org>\n'
                '---\ndiff --git a/kernel/sched/build_kunit.c b/kernel/sched/build_kunit.c\n'
                'new file mode 100644\n--- /dev/null\n+++ b/kernel/sched/build_kunit.c\n'
                '@@ -0,0 +1 @@\n+/* mine */\n')
        self.write_series(('0001-mine.patch', text))
        proc = self.prepare(ok=False)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn('kernel/sched/build_kunit.c already exists', proc.stderr)
        self.assertIn('refusing to overwrite kernel code', proc.stderr)
        self.assertFalse(os.path.exists(self.pkg.steps_file))

    def test_bump_without_user_work_replaces_tree(self):
        pkg = self.pkg
        self.prepare()
        old_pristine = pkg.git('rev-parse', 'pristine')
        base = pkg.git('rev-parse', 'HEAD', cwd=pkg.scratch)
        # What the scripts do to a tree: sched_tinify/run.py checks steps out (as
        # whoever runs it), mutants.sh's steps are committed as mutant@.
        self.user_git('checkout', '-q', '--detach', base)
        mutant = pkg.git('commit-tree', '-p', base, '-m', 'mutant', 'HEAD^{tree}',
                         env=dict(os.environ, GIT_AUTHOR_NAME='mutant',
                                  GIT_AUTHOR_EMAIL='mutant@localhost',
                                  GIT_COMMITTER_NAME='mutant',
                                  GIT_COMMITTER_EMAIL='mutant@localhost'))
        self.user_git('checkout', '-q', '--detach', mutant)
        os.makedirs(os.path.join(pkg.build, 'x86_64-smp'))
        self.bump()
        proc = self.prepare()
        self.assertIn('holds nothing but what the harness made: deleting it', proc.stderr)
        self.assertEqual(self.aside(), [])
        self.assertFalse(os.path.exists(pkg.build))
        self.assert_fresh()
        self.assertNotEqual(pkg.git('rev-parse', 'pristine'), old_pristine)

    # Work of someone's own, of each kind: each makes it in the tree and
    # returns the note's reason (a regex) and a check of the moved tree.

    def work_branch(self):
        self.user_git('checkout', '-q', '-b', 'mywork', 'pristine')
        with open(os.path.join(self.pkg.tree, 'Makefile'), 'a', encoding='utf-8') as f:
            f.write('# mine\n')
        self.user_git('commit', '-q', '-a', '-m', 'my change')
        sha = self.pkg.git('rev-parse', 'mywork')

        def check(moved):
            self.assertEqual(self.pkg.git('rev-parse', 'mywork', cwd=moved), sha)
            self.assertEqual(self.pkg.git('worktree', 'list', '--porcelain', cwd=moved).count(
                'worktree '), 1, 'the stale compose worktree was not pruned')
        return r'local branch mywork\n(.*\n)*.*1 commit\(s\) of your own .*my change', check

    def work_stash(self):
        with open(os.path.join(self.pkg.tree, 'Makefile'), 'a', encoding='utf-8') as f:
            f.write('# stashed\n')
        self.user_git('stash', '-q')
        stash = self.pkg.git('rev-parse', 'refs/stash')
        return r'a stash of 1 change', lambda moved: self.assertEqual(
            self.pkg.git('rev-parse', 'refs/stash', cwd=moved), stash)

    def work_uncommitted(self):
        with open(os.path.join(self.pkg.tree, 'Makefile'), 'a', encoding='utf-8') as f:
            f.write('# not committed\n')
        with open(os.path.join(self.pkg.tree, 'notes.txt'), 'w', encoding='utf-8') as f:
            f.write('mine\n')

        def check(moved):
            with open(os.path.join(moved, 'Makefile'), encoding='utf-8') as f:
                self.assertIn('# not committed\n', f.read())
            self.assertTrue(os.path.isfile(os.path.join(moved, 'notes.txt')))
        return r'2 uncommitted change\(s\) or untracked file', check

    def work_ignored(self):
        path = os.path.join(self.pkg.tree, '0001-mine.patch')
        with open(path, 'w', encoding='utf-8') as f:
            f.write('Subject: [PATCH] mine\n')
        self.assertEqual(self.pkg.git('status', '--porcelain'), '', 'the file must be ignored')

        def check(moved):
            self.assertTrue(os.path.isfile(os.path.join(moved, '0001-mine.patch')))
        return r'1 uncommitted change\(s\) or untracked file.*0001-mine.patch', check

    def work_detached_commit(self):
        self.user_git('checkout', '-q', '--detach', 'pristine')
        self.user_git('commit', '-q', '--allow-empty', '-m', 'detached work')
        sha = self.pkg.git('rev-parse', 'HEAD')
        # Only the reflog knows it now.
        self.user_git('checkout', '-q', '--detach', 'pristine')
        return (rf'1 commit\(s\) of your own .*{sha[:7]}\w* dev@example.org detached work',
                lambda moved: self.assertEqual(
                    self.pkg.git('cat-file', '-t', sha, cwd=moved), 'commit'))

    def work_commit_in_compose(self):
        self.user_git('commit', '-q', '--allow-empty', '-m', 'in compose', cwd=self.pkg.scratch)
        sha = self.pkg.git('rev-parse', 'HEAD', cwd=self.pkg.scratch)
        return (rf'1 commit\(s\) of your own .*{sha[:7]}\w* dev@example.org in compose',
                lambda moved: self.assertEqual(
                    self.pkg.git('cat-file', '-t', sha, cwd=moved), 'commit'))

    def work_tag(self):
        self.user_git('tag', 'v-mine', 'pristine')
        return r'tag v-mine\n', lambda moved: self.assertEqual(
            self.pkg.git('rev-parse', 'v-mine', cwd=moved),
            self.pkg.git('rev-parse', 'pristine', cwd=moved))

    def work_worktree(self):
        mine = os.path.join(self.pkg.root, 'mine')
        self.user_git('worktree', 'add', '-q', '--detach', mine, 'pristine')

        def check(moved):
            # The worktree follows its repository.
            self.assertEqual(self.pkg.git('rev-parse', '--git-common-dir', cwd=mine),
                             os.path.join(moved, '.git'))
            shutil.rmtree(mine)
        return rf'worktree {re.escape(mine)}\n', check

    def work_git_folder_deleted(self):
        shutil.rmtree(os.path.join(self.pkg.tree, '.git'))
        return r'it is not a git repository', lambda moved: self.assertTrue(
            os.path.isfile(os.path.join(moved, 'Makefile')))

    def test_bump_with_user_work_moves_tree(self):
        """One version bump per kind of work, each on the last one's tree."""
        self.prepare()
        for kind in ('branch', 'stash', 'uncommitted', 'ignored', 'detached_commit',
                     'commit_in_compose', 'tag', 'worktree', 'git_folder_deleted'):
            with self.subTest(kind):
                reason, check = getattr(self, f'work_{kind}')()
                old = self.bump()
                proc = self.pkg.prepare()
                if proc.returncode:
                    self.prepare()  # the next kind needs a tree
                    self.fail(proc.stderr)
                check(self.assert_moved(proc, old, reason))

    def test_taken_name_gets_next_number(self):
        pkg = self.pkg
        self.prepare()
        self.user_git('branch', 'mywork', 'pristine')
        taken = os.path.join(pkg.pkg_dir, f'linux.{pkg.version}')
        os.makedirs(taken)
        old = self.bump()
        moved = self.assert_moved(self.prepare(), old, r'local branch mywork\n', '.1')
        self.assertEqual(os.listdir(taken), [])
        self.assertEqual(pkg.git('for-each-ref', '--format=%(refname)', 'refs/heads', cwd=moved),
                         'refs/heads/mywork')

    def test_tree_not_a_git_repository(self):
        pkg = self.pkg
        os.makedirs(pkg.tree)
        with open(os.path.join(pkg.tree, 'README'), 'w', encoding='utf-8') as f:
            f.write('unpacked by hand\n')
        proc = self.prepare()
        moved = self.assert_moved(proc, 'unknown', r'it is not a git repository')
        self.assertTrue(os.path.isfile(os.path.join(moved, 'README')))

    def test_corrupt_repository_is_kept(self):
        pkg = self.pkg
        self.prepare()
        with open(os.path.join(pkg.tree, '.git', 'HEAD'), 'w', encoding='utf-8') as f:
            f.write('garbage\n')
        self.bump()
        proc = self.prepare(ok=False)
        self.assertNotEqual(proc.returncode, 0)
        self.assertRegex(proc.stderr, r'error: cannot tell whether .*linux holds work '
                                      r'of your own, git .* failed: .*not a git repository'
                                      r'.*nothing was deleted')
        self.assertEqual(self.aside(), [])
        self.assertTrue(os.path.isfile(os.path.join(pkg.tree, 'Makefile')))

    def test_missing_compose_keeps_tree(self):
        pkg = self.pkg
        self.prepare()
        self.user_git('branch', 'mywork', 'pristine')
        shutil.rmtree(pkg.scratch)
        proc = self.prepare()
        self.assertIn('adding it to', proc.stderr)
        self.assertEqual(self.aside(), [])
        self.assertEqual(pkg.git('rev-parse', 'mywork'), pkg.git('rev-parse', 'pristine'))
        self.assertTrue(os.path.isfile(os.path.join(pkg.scratch, '.git')))


if __name__ == '__main__':
    unittest.main()
