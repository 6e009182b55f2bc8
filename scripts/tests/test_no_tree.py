# SPDX-License-Identifier: GPL-2.0
"""The unit tests on a fresh clone, before any kernel tree is unpacked:
the ones that need the tree's kunit_parser skip, naming the command that
unpacks it, instead of failing with an exception."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class NoTreeTest(unittest.TestCase):

    def test_judge_tests_skip_with_the_command_to_run(self):
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, SCHED_TINIFY_TREE=os.path.join(d, 'no-tree'))
            proc = subprocess.run([sys.executable, '-m', 'unittest', '-v', 'tests.test_judge'],
                                  cwd=os.path.dirname(HERE), env=env, capture_output=True,
                                  text=True, check=False, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('run scripts/matrix.sh --prepare-only (scripts/test.sh does)', proc.stderr)
        self.assertRegex(proc.stderr, r'OK \(skipped=\d+\)')


if __name__ == '__main__':
    unittest.main()
