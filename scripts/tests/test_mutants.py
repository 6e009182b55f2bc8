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


class MutantSeriesTest(unittest.TestCase):

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
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("no '# step: NN' line naming a step of the series (00-02)", proc.stderr)

    def test_a_mutant_must_apply_at_the_last_step(self):
        # Code that a later patch changes: without "# until:" it must
        # still be there at the last step.
        self.mutant('2-a.sed', '# file: Makefile', '# step: 01', 's/^NAME = A$/NAME = M2/')
        proc = self.run_mutants()
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertRegex(proc.stderr, r'2-a.sed changes nothing in Makefile at step 02-b')


if __name__ == '__main__':
    unittest.main()
