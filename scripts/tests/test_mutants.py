# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/mutants.sh's mutant series on a fake package.

A mutant names the first step of the series at which its code exists
("# step: NN") and, for code a later patch moves, the last ("# until:
NN"); it runs at both. The mutant series is the real series with, after
patch K, each mutant of step K and its revert, so that every mutant step
is a real step plus one mutant.
"""

import os
import unittest

try:
    from tests import faketree
except ImportError:  # discovered with scripts/tests as the top folder
    import faketree

SCRIPTS = os.environ.get('SCHED_TINIFY_TEST_SCRIPTS')


def patch(subject, body):
    """A git am-able patch of the fake Makefile: BODY is its diff hunks."""
    return (f'From: Dev <dev@example.org>\nDate: Thu, 3 Dec 2026 06:18:33 +0000\n'
            f'Subject: [PATCH] {subject}\n\n{subject}.\n\n'
            f'Signed-off-by: Dev <dev@example.org>\n---\n'
            f'diff --git a/Makefile b/Makefile\n--- a/Makefile\n+++ b/Makefile\n{body}')


class MutantRunner:
    """A fake package with a two-patch series and a folder of mutants."""

    def setUp(self):
        faketree.require_tools()
        self.pkg = faketree.FakePackage()
        self.addCleanup(self.pkg.cleanup)
        series = [('0001-a.patch', patch('Name A', '@@ -6 +6 @@\n-NAME = Fake\n+NAME = A\n')),
                  ('0002-b.patch', patch('Name B', '@@ -6 +6 @@\n-NAME = A\n+NAME = B\n'))]
        for name, text in series:
            with open(os.path.join(self.pkg.series, name), 'w', encoding='utf-8') as f:
                f.write(text)
        with open(os.path.join(self.pkg.series, 'series'), 'w', encoding='utf-8') as f:
            f.write(''.join(f'{name}\n' for name, _ in series))
        self.dir = os.path.join(self.pkg.root, 'mutants')
        os.makedirs(self.dir)

    def mutant(self, name, *lines):
        with open(os.path.join(self.dir, name), 'w', encoding='utf-8') as f:
            f.write(''.join(f'{line}\n' for line in lines))

    def run_mutants(self, *opts):
        # --judge-only: compose the series, judge what is there (nothing).
        return self.pkg.run('mutants.sh', '--judge-only', *opts, self.dir, timeout=120,
                            scripts_dir=SCRIPTS)

    def mutant_series(self):
        path = os.path.join(self.pkg.pkg_dir, 'mutants', 'series', 'series')
        with open(path, encoding='utf-8') as f:
            return f.read().split()


class MutantSeriesTest(MutantRunner, unittest.TestCase):

    def test_each_mutant_runs_at_its_first_step_and_its_last(self):
        self.mutant('1-any.sed', '# file: Makefile', '# step: 00', 's/^NAME = .*/NAME = M1/')
        self.mutant('2-a.sed', '# file: Makefile', '# step: 01', '# until: 01',
                    's/^NAME = A$/NAME = M2/')
        proc = self.run_mutants()
        self.assertEqual(self.mutant_series(), [
            '1001-mutant-1-any.patch', '1002-revert-mutant-1-any.patch', '0001-a.patch',
            '1003-mutant-2-a.patch', '1004-revert-mutant-2-a.patch', '0002-b.patch',
            '1005-mutant-1-any.patch', '1006-revert-mutant-1-any.patch'], proc.stderr)
        # Each mutant patch is a change of its step's file, nothing else.
        with open(os.path.join(self.pkg.pkg_dir, 'mutants', 'series',
                               '1005-mutant-1-any.patch'), encoding='utf-8') as f:
            text = f.read()
        self.assertIn('-NAME = B\n+NAME = M1\n', text)
        # Nothing ran: the judge says so, and the run is not green.
        self.assertNotEqual(proc.returncode, 0)

    def test_the_real_steps_file_is_never_touched(self):
        # The mutant series has a steps file of its own, so that a stopped
        # run leaves nothing to restore (no prepare-tree.sh in an exit
        # trap, detached from the stopped run, holding the lock).
        self.mutant('1-any.sed', '# file: Makefile', '# step: 00', 's/^NAME = .*/NAME = M1/')
        proc = self.pkg.run('prepare-tree.sh', scripts_dir=SCRIPTS, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        before = os.stat(self.pkg.steps_file)
        with open(self.pkg.steps_file, encoding='utf-8') as f:
            text = f.read()
        self.run_mutants()
        after = os.stat(self.pkg.steps_file)
        self.assertEqual((after.st_ino, after.st_mtime_ns), (before.st_ino, before.st_mtime_ns))
        with open(self.pkg.steps_file, encoding='utf-8') as f:
            self.assertEqual(f.read(), text)
        self.assertTrue(os.path.isfile(os.path.join(self.pkg.pkg_dir, 'mutants', 'steps')))

    def test_last_only_runs_each_mutant_at_its_last_step_against_the_baseline(self):
        self.mutant('1-any.sed', '# file: Makefile', '# step: 00', 's/^NAME = .*/NAME = M1/')
        proc = self.run_mutants('--last-only')
        self.assertEqual(self.mutant_series(), [
            '0001-a.patch', '0002-b.patch', '1001-mutant-1-any.patch',
            '1002-revert-mutant-1-any.patch'], proc.stderr)
        # The steps run: the baseline, the control (the real last step)
        # and the mutant step.
        self.assertIn('1 mutant step(s) and their references: 00-baseline,02-b,03-mutant-1-any',
                      proc.stderr)

    def test_a_mutant_must_name_its_first_step(self):
        self.mutant('1-any.sed', '# file: Makefile', 's/^NAME = .*/NAME = M1/')
        proc = self.run_mutants()
        # A mutant file the harness cannot use: a harness failure, 2.
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("no '# step: NN' line naming a step of the series (00-02)", proc.stderr)

    def test_a_mutant_must_apply_at_the_last_step(self):
        # Code that a later patch changes: without "# until:" it must
        # still be there at the last step.
        self.mutant('2-a.sed', '# file: Makefile', '# step: 01', 's/^NAME = A$/NAME = M2/')
        proc = self.run_mutants()
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertRegex(proc.stderr, r'2-a.sed changes nothing in Makefile at step 02-b')


def new_file_patch(subject, path, text):
    """A git am-able patch that adds PATH with TEXT."""
    body = ''.join(f'+{line}\n' for line in text.splitlines())
    n = len(text.splitlines())
    return (f'From: Dev <dev@example.org>\nDate: Thu, 3 Dec 2026 06:18:33 +0000\n'
            f'Subject: [PATCH] {subject}\n\n{subject}.\n\n'
            f'Signed-off-by: Dev <dev@example.org>\n---\n'
            f'diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n'
            f'+++ b/{path}\n@@ -0,0 +1,{n} @@\n{body}')


class TinyMutantSeriesTest(MutantRunner, unittest.TestCase):
    """--tiny CELL: the cell's kind of mutants, and the cells' mutants
    whose "# tiny cells:" line names it, from the first step with the
    option the cell needs (x86_64-nort needs SCHED_CLASS_RT)."""

    def setUp(self):
        super().setUp()
        kconfig = new_file_patch('Add the option', 'init/Kconfig',
                                 'config SCHED_CLASS_RT\n\tbool "RT"\n')
        with open(os.path.join(self.pkg.series, '0003-c.patch'), 'w', encoding='utf-8') as f:
            f.write(kconfig)
        with open(os.path.join(self.pkg.series, 'series'), 'a', encoding='utf-8') as f:
            f.write('0003-c.patch\n')

    def test_a_cells_mutant_named_by_tiny_cells_runs_from_the_first_step_with_the_option(self):
        self.mutant('1-cells.sed', '# file: Makefile', '# step: 00',
                    '# tiny cells: x86_64-nort', 's/^NAME = .*/NAME = M1/')
        self.mutant('2-other.sed', '# file: Makefile', '# step: 00', 's/^NAME = .*/NAME = M2/')
        self.mutant('3-tiny.sed', '# file: Makefile', '# step: 03', '# tiny: SCHED_CLASS_RT',
                    's/^NAME = .*/NAME = M3/')
        proc = self.run_mutants('--tiny', 'x86_64-nort')
        # 1 from step 03 (the first with the option), not 00; 2 (no
        # "# tiny cells:" line) left out; 3 at its step, 03, the last.
        self.assertEqual(self.mutant_series(), [
            '0001-a.patch', '0002-b.patch', '0003-c.patch',
            '1001-mutant-1-cells.patch', '1002-revert-mutant-1-cells.patch',
            '1003-mutant-3-tiny.patch', '1004-revert-mutant-3-tiny.patch'], proc.stderr)
        self.assertIn('left out 1 mutant(s) of another kind', proc.stderr)

    def test_a_cells_mutant_not_named_is_not_run_in_a_tiny_cell(self):
        self.mutant('1-cells.sed', '# file: Makefile', '# step: 00',
                    '# tiny cells: arm-nort', 's/^NAME = .*/NAME = M1/')
        proc = self.run_mutants('--tiny', 'x86_64-nort')
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('no mutant to run in x86_64-nort', proc.stderr)


if __name__ == '__main__':
    unittest.main()
