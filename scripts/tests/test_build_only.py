# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/build-only.sh on a fake package (tests/faketree.py).

The W=1 warnings it keeps are those of kernel/sched/ and of every file
the series touches (not only kernel/sched/: the series edits include/,
init/, kernel/locking/, drivers/ ...), without line numbers.
"""

import os
import unittest

try:
    from tests import faketree
except ImportError:  # discovered with scripts/tests as the top folder
    import faketree

SCRIPTS = os.environ.get('SCHED_TINIFY_TEST_SCRIPTS')

# A kunit.py whose "build" prints warnings as kbuild does, with the path
# as make gives it.
WARNING_KUNIT_PY = '''\
import sys

print('fake kunit.py', *sys.argv[1:])
print('/src/linux/kernel/sched/core.c:12:3: warning: unused variable [-Wunused-variable]')
print('../Makefile:3:1: warning: in a file the series touches')
print('drivers/other/elsewhere.c:5:1: warning: in a file the series leaves alone')
'''


class BuildOnlyTest(unittest.TestCase):

    def setUp(self):
        faketree.require_tools()
        self.pkg = faketree.FakePackage(kunit_py=WARNING_KUNIT_PY)
        self.addCleanup(self.pkg.cleanup)
        patch = ('From: Dev <dev@example.org>\nDate: Thu, 3 Dec 2026 06:18:33 +0000\n'
                 'Subject: [PATCH] Name A\n\nName A.\n\nSigned-off-by: Dev <dev@example.org>\n'
                 '---\ndiff --git a/Makefile b/Makefile\n--- a/Makefile\n+++ b/Makefile\n'
                 '@@ -6 +6 @@\n-NAME = Fake\n+NAME = A\n')
        with open(os.path.join(self.pkg.series, '0001-a.patch'), 'w', encoding='utf-8') as f:
            f.write(patch)
        with open(os.path.join(self.pkg.series, 'series'), 'w', encoding='utf-8') as f:
            f.write('0001-a.patch\n')
        proc = self.pkg.run('prepare-tree.sh', scripts_dir=SCRIPTS, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def warnings(self, step, *opts):
        proc = self.pkg.run('build-only.sh', *opts, step, 'x86_64-up-lean', scripts_dir=SCRIPTS,
                            timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        path = os.path.join(self.pkg.results, self.pkg.pkg, step, 'x86_64-up-lean', 'warnings')
        with open(path, encoding='utf-8') as f:
            return f.read().splitlines()

    def test_warnings_of_kernel_sched_and_of_the_files_the_series_touches(self):
        self.assertEqual(self.warnings('00-baseline'), [
            'Makefile: warning: in a file the series touches',
            'kernel/sched/core.c: warning: unused variable [-Wunused-variable]'])

    def test_a_kernel_sched_only_build_keeps_kernel_sched_only(self):
        self.assertEqual(self.warnings('01-a', '--sched-only'), [
            'kernel/sched/core.c: warning: unused variable [-Wunused-variable]'])


if __name__ == '__main__':
    unittest.main()
