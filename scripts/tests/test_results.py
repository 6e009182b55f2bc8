# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/results.py, on hand-made report.json data."""

import contextlib
import io
import json
import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

import results


UNJUDGED = ('not run', 'incomplete', 'build failed', 'stale', 'left to the main job')


def entry(status='same', red=False, res=None, differences=(), problems=()):
    return {'status': status, 'judged': status not in UNJUDGED,
            'left': status == 'left to the main job', 'red': red,
            'counts': {}, 'problems': list(problems),
            'failures': [], 'build_seconds': '1', 'run_seconds': '1',
            'results': res if res is not None else {'s': ['PASS', ''], 's.a': ['PASS', '']},
            'differences': list(differences)}


def report(*rows, cells=('c',)):
    """A report.json of a baseline and one step per row ({cell: entry})."""
    steps = ['00-baseline'] + [f'{i:02d}-m' for i in range(1, len(rows) + 1)]
    grid = {'00-baseline': {c: entry('baseline') for c in cells}}
    grid.update({s: row for s, row in zip(steps[1:], rows)})
    return {'schema': 2, 'steps': [{'name': s, 'sha': s * 3} for s in steps],
            'cells': list(cells), 'builds': [], 'build_grid': {}, 'grid': grid, 'problems': [], 'differences': [],
            'verdict': 'GREEN', 'left': [],
            'totals': {'PASS': 7, 'SKIP': 2, 'FAIL': 1, 'CRASH': 1}}


class LinesTest(unittest.TestCase):

    def test_kunit_and_verdict_lines(self):
        data = report({'c': entry()})
        self.assertEqual(results.kunit_line(data), 'kunit: 7 passed, 2 failed, 2 skipped')
        data['left'] = ['01-m c']
        self.assertEqual(results.verdict_line(data), 'verdict: GREEN: 2 cell step(s) '
                         'judged, 0 problem(s), 0 difference(s), 1 left to the main job')

    def test_load_refuses_other_files(self):
        with tempfile.NamedTemporaryFile('w', suffix='.json') as f:
            json.dump({'verdict': 'GREEN', 'schema': 1}, f)
            f.flush()
            with self.assertRaisesRegex(results.ResultsError, 'schema 2'):
                results.load(f.name)


class JunitTest(unittest.TestCase):

    def test_cases_failures_skips_and_harness(self):
        res = {'s': ['FAIL', ''], 's.a': ['PASS', ''], 's.b': ['FAIL', ''], 's.\x1be': ['PASS', ''],
               's.c': ['SKIP', 'needs SMP'], 's.d': ['CRASH', '']}
        data = report({'c': entry('differs', True, res, ['changed: s.b: PASS -> FAIL'])},
                      {'c': entry('stale', True, res, problems=['stale: \x1b[1mx'])})
        top = results.junit_xml(data, 'c').getroot()
        suites = top.findall('testsuite')
        self.assertEqual([s.get('name') for s in suites], ['00-baseline c', '01-m c', '02-m c'])
        step = suites[1]
        self.assertEqual((step.get('tests'), step.get('failures'), step.get('errors'),
                          step.get('skipped')), ('6', '2', '1', '1'))
        names = [c.get('name') for c in step.findall('testcase')]
        self.assertEqual(names, ['a', 'b', '?e', 'c', 'd', 'same as the baseline'])
        self.assertEqual(step.find("testcase[@name='c']/skipped").get('message'), 'needs SMP')
        # A stale result shows no old cases, and its escape sequence is gone.
        self.assertEqual([c.get('name') for c in suites[2].findall('testcase')], ['run'])
        self.assertEqual(suites[2].find('testcase/error').get('message'), 'stale')
        self.assertEqual(suites[2].find('testcase/error').text, 'stale: ?[1mx')
        ET.fromstring(ET.tostring(top))

    def test_a_parameter_with_a_dot_keeps_its_name(self):
        # Suite and case names are C identifiers; a parameter's
        # description is free text, dots included.
        res = {'s': ['PASS', ''], 's.c': ['PASS', ''],
               's.c.known 6.1: shrink refused': ['PASS', ''], 's.d': ['PASS', '']}
        data = report({'c': entry('same', False, res)})
        step = results.junit_xml(data, 'c').getroot().findall('testsuite')[1]
        self.assertEqual([(c.get('classname'), c.get('name')) for c in step.findall('testcase')],
                         [('s.c', 'known 6.1: shrink refused'), ('s', 'd')])

    def test_written_per_cell(self):
        data = report({'a': entry(), 'b': entry()}, cells=('a', 'b'))
        data['builds'] = []
        with tempfile.TemporaryDirectory() as d:
            paths = results.write_junit(data, d)
            self.assertEqual([os.path.basename(p) for p in paths], ['a.xml', 'b.xml'])
            self.assertEqual(ET.parse(paths[0]).getroot().tag, 'testsuites')

    def test_build_only_configurations(self):
        data = report(cells=())
        data['builds'] = ['lean', 'other']
        def build(status, new=(), left=False):
            return {'status': status, 'new_warnings': list(new), 'left': left,
                    'judged': status == 'built'}
        data['build_grid'] = {
            '00-baseline': {'lean': build('built'), 'other': build('build failed')},
            '01-m': {'lean': build('built', ['rt.c: warning: x']),
                     'other': build('left to the main job', left=True)},
        }
        data['steps'] = data['steps'][:1] + [{'name': '01-m', 'sha': 'x'}]
        with tempfile.TemporaryDirectory() as d:
            paths = results.write_junit(data, d)
            self.assertEqual([os.path.basename(p) for p in paths], ['build-only.xml'])
            suites = ET.parse(paths[0]).getroot().findall('testsuite')
        self.assertEqual([(s.get('tests'), s.get('failures'), s.get('errors'), s.get('skipped'))
                          for s in suites], [('2', '0', '1', '0'), ('2', '1', '0', '1')])
        self.assertEqual(suites[1].find("testcase[@name='lean']/failure").text,
                         'rt.c: warning: x')


class MutantsTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()  # pylint: disable=consider-using-with

    def tearDown(self):
        self.tmp.cleanup()

    def mutant(self, name, survive=False):
        path = os.path.join(self.tmp.name, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write('# file: kernel/sched/core.c\n')
            if survive:
                f.write('# expect: survive: cannot change the result\n')
            f.write('s/</<=/\n')
        return path

    def test_verdicts(self):
        data = report({'c': entry('differs', True, differences=['changed: x: PASS -> FAIL'])},
                      {'c': entry()},
                      {'c': entry('build failed', True)},
                      {'c': entry('same', True, problems=['kernel splat: 1 line(s)'])},
                      {'c': entry('differs', True, differences=['missing: y'])})
        mutants = [self.mutant(f'{i}.sed', survive=i == 2) for i in range(1, 6)]
        pairs = [(f'{i:02d}-m', m) for i, m in enumerate(mutants, 1)]
        rows, good = results.judge_mutants(data, pairs, ['00-baseline'])
        self.assertEqual([r[2]['c'] for r in rows], [
            'killed', 'survived', 'invalid (did not build, run, or is stale)',
            'invalid (red without a difference)', 'killed'])
        self.assertEqual([r[1] for r in rows][:2], ['killed', 'survived'])
        self.assertEqual(rows[0][3], 'changed: x: PASS -> FAIL')
        self.assertFalse(good)
        rows, good = results.judge_mutants(report(data['grid']['01-m'], data['grid']['02-m']),
                                           pairs[:2], ['00-baseline'])
        self.assertTrue(good)

    def test_a_mutant_that_survives_unexpectedly_fails_the_run(self):
        data = report({'c': entry()})
        rows, good = results.judge_mutants(data, [('01-m', self.mutant('1.sed'))], [])
        self.assertEqual(rows[0][2], {'c': 'survived'})
        self.assertFalse(good)

    def test_killed_in_one_cell_survived_in_another_fails(self):
        # Each cell is judged on its own: a difference in one cell does
        # not stand for a cell that saw nothing.
        data = report({'a': entry('differs', True, differences=['changed: x']), 'b': entry()},
                      cells=('a', 'b'))
        rows, good = results.judge_mutants(data, [('01-m', self.mutant('1.sed'))], [])
        self.assertEqual(rows[0][2], {'a': 'killed', 'b': 'survived'})
        self.assertFalse(good)

    def test_cells_line_keeps_a_mutant_to_the_cells_that_build_its_code(self):
        data = report({'smp': entry('differs', True, differences=['changed: x']),
                       'up': entry()}, cells=('smp', 'up'))
        path = self.mutant('1.sed')
        with open(path, 'a', encoding='utf-8') as f:
            f.write('# cells: smp\n')
        rows, good = results.judge_mutants(data, [('01-m', path)], [])
        self.assertEqual(rows[0][2], {'smp': 'killed', 'up': 'n/a'})
        self.assertTrue(good)
        self.assertIn('- up: 0 of 0 mutant runs killed',
                      results.mutants_summary(rows, data['cells']))

    def test_control_must_be_the_same_as_the_baseline(self):
        # A mutant at a later step is judged from that step of the real
        # series: if the step itself differs, the mutant proves nothing.
        data = report({'c': entry('differs', True, differences=['changed: x'])},
                      {'c': entry('differs', True, differences=['changed: x'])})
        with self.assertRaisesRegex(results.ResultsError, 'control step 01-m is not the same'):
            results.judge_mutants(data, [('02-m', self.mutant('1.sed'))], ['01-m'])
        data['grid']['01-m']['c'] = entry()
        rows, good = results.judge_mutants(data, [('02-m', self.mutant('1.sed'))], ['01-m'])
        self.assertTrue(good)

    def test_baseline_must_be_green(self):
        data = report({'c': entry()})
        data['grid']['00-baseline']['c']['red'] = True
        with self.assertRaisesRegex(results.ResultsError, 'baseline is not green'):
            results.judge_mutants(data, [('01-m', self.mutant('1.sed'))], [])

    def test_steps_must_be_the_mutant_runs(self):
        with self.assertRaisesRegex(results.ResultsError, r"extra: \['01-m'\].*not prepared"):
            results.judge_mutants(report({'c': entry()}), [], [])
        with self.assertRaisesRegex(results.ResultsError, "missing: .'02-m'.*not prepared"):
            results.judge_mutants(report({'c': entry()}),
                                  [('01-m', self.mutant('1.sed')), ('02-m', self.mutant('2.sed'))],
                                  [])

    def test_main_writes_the_summary(self):
        path = os.path.join(self.tmp.name, 'report.json')
        with open(path, 'w', encoding='utf-8') as f:
            json.dump(report({'c': entry('differs', True, differences=['new: z | w'])}), f)
        summary = os.path.join(self.tmp.name, 'summary.md')
        with contextlib.redirect_stdout(io.StringIO()):
            rc = results.main(['mutants', path, summary, '--control', '00-baseline',
                               '01-m=' + self.mutant('1.sed')])
        self.assertEqual(rc, 0)
        with open(summary, encoding='utf-8') as f:
            text = f.read()
        self.assertIn('| 01-m | killed | killed | new: z \\| w |', text)
        self.assertIn('- c: 1 of 1 mutant runs killed', text)
        with self.assertRaisesRegex(results.ResultsError, 'not --control STEP'):
            results.main(['mutants', path, summary, 'junk'])


if __name__ == '__main__':
    unittest.main()
