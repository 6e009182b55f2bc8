# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/steps.py, the one reader of series and steps files."""

import os
import tempfile
import unittest

import steps


class StepsTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()  # pylint: disable=consider-using-with
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path

    def test_series(self):
        for name in ('0001-a.patch', '0002-b.patch'):
            self.write(name, f'Subject: {name}\n')
        # Comments, blank lines, and a last line without a newline.
        self.write('series', '# the series\n\n0001-a.patch  # first\n0002-b.patch')
        self.assertEqual(steps.read_series(self.dir), ['0001-a.patch', '0002-b.patch'])
        digests = steps.series_digests(self.dir)
        self.assertEqual([n for n, _ in digests], ['0001-a.patch', '0002-b.patch'])
        self.assertRegex(digests[0][1], r'^[0-9a-f]{64}$')
        self.assertEqual(steps.main(['patches', self.dir]), '0001-a.patch\n0002-b.patch')

    def test_series_errors(self):
        with self.assertRaisesRegex(steps.StepsError, 'no series file'):
            steps.read_series(self.dir)
        self.write('series', '0001-missing.patch\n')
        with self.assertRaisesRegex(steps.StepsError, 'names 0001-missing.patch'):
            steps.read_series(self.dir)
        self.write('series', '# nothing yet\n')
        self.assertEqual(steps.read_series(self.dir), [])

    def test_steps(self):
        path = self.write('steps', f'00-baseline {"a" * 40}\n01-move {"b" * 40}\n')
        self.assertEqual(steps.read_steps(path), [('00-baseline', 'a' * 40),
                                                  ('01-move', 'b' * 40)])
        self.assertEqual(steps.step_sha(path, '01-move'), 'b' * 40)
        self.assertEqual(steps.main(['names', path]), '00-baseline\n01-move')
        with self.assertRaisesRegex(steps.StepsError, 'no step 02-x .*known: 00-baseline 01-move'):
            steps.main(['sha', path, '02-x'])

    def test_steps_errors(self):
        with self.assertRaisesRegex(steps.StepsError, 'run scripts/prepare-tree.sh'):
            steps.read_steps(os.path.join(self.dir, 'steps'))
        bad = {'01-x ' + 'a' * 40 + '\n': 'first step must be 00-baseline',
               '00-baseline\n': 'every line must be',
               '': 'first step must be 00-baseline'}
        for text, error in bad.items():
            with self.subTest(text=text):
                with self.assertRaisesRegex(steps.StepsError, error):
                    steps.read_steps(self.write('steps', text))


if __name__ == '__main__':
    unittest.main()
