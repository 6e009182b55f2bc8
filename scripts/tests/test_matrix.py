# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/matrix.py."""

import copy
import json
import os
import re
import tempfile
import unittest

import matrix

CELL = {'name': 'x-smp', 'arch': 'x86_64', 'cross_compile': '', 'compiler': 'gcc',
        'kunitconfig': 'kunitconfigs/x', 'smp': True, 'cpus': 4,
        'qemu_args': '-smp 4'}
GOOD = {'trees': {'linux-source-6.1': {'patches': 'patches', 'version': '6.1.192-3'}},
        'cells': [CELL]}
BUILD = {'name': 'x-lean', 'arch': 'x86_64', 'cross_compile': '', 'compiler': 'gcc',
         'kunitconfig': 'kunitconfigs/build-only/x'}


def with_cell(**changes):
    data = copy.deepcopy(GOOD)
    data['cells'][0].update(changes)
    return data


class ValidateTest(unittest.TestCase):

    def test_project_matrix_is_valid(self):
        data = matrix.load()
        names = [c['name'] for c in data['cells']]
        self.assertEqual(sorted(names), ['arm-smp', 'arm-up', 'x86_64-smp', 'x86_64-up'])
        for cell in data['cells']:
            self.assertTrue(os.path.isfile(os.path.join(
                os.path.dirname(matrix.MATRIX), '..', cell['kunitconfig'])))

    def test_good(self):
        self.assertIs(matrix.validate(copy.deepcopy(GOOD))['cells'][0]['smp'], True)

    def test_rejects(self):
        bad = {
            'missing field': with_cell(arch=None),
            'wrong type': with_cell(cpus='4'),
            'unknown field': with_cell(extra=1),
            'smp with one cpu': with_cell(cpus=1),
            'smp without -smp in qemu args': with_cell(qemu_args=''),
            'no trees': {**GOOD, 'trees': {}},
            'no cells': {**GOOD, 'cells': []},
            'duplicate cell': {**GOOD, 'cells': [CELL, CELL]},
            'tree without patches': {**GOOD, 'trees': {'p': {'version': '1'}}},
            'tree without version': {**GOOD, 'trees': {'p': {'patches': 'patches'}}},
            'build without kunitconfig': {**GOOD, 'builds': [{**BUILD, 'kunitconfig': None}]},
            'build with a cell field': {**GOOD, 'builds': [{**BUILD, 'smp': True}]},
            'build named like a cell': {**GOOD, 'builds': [{**BUILD, 'name': 'x-smp'}]},
            'build with empty needs': {**GOOD, 'builds': [{**BUILD, 'needs': ''}]},
            'build with needs not a string': {**GOOD, 'builds': [{**BUILD, 'needs': 1}]},
            'cell with needs': with_cell(needs='SCHED_CLASS_DL'),
            'unknown top-level field': {**GOOD, 'cellz': []},
        }
        for what, data in bad.items():
            with self.subTest(what):
                with self.assertRaises(matrix.MatrixError):
                    matrix.validate(data)

    def test_unreadable_file(self):
        with tempfile.NamedTemporaryFile('w', suffix='.json') as f:
            f.write('{not json')
            f.flush()
            with self.assertRaises(matrix.MatrixError):
                matrix.load(f.name)


class KunitconfigTest(unittest.TestCase):
    """Every cell enables every suite, and its SMP setting is the cell's."""

    def test_kunitconfigs_match_the_suites_and_the_cells(self):
        root = os.path.join(os.path.dirname(matrix.MATRIX), '..')
        with open(os.path.join(root, 'kunit', 'kernel', 'sched', 'Kconfig.kunit'),
                  encoding='utf-8') as f:
            entries = re.findall(r'^config (\w+_KUNIT_TEST)\n(?:\t.*\n)*?\tdepends on (.*)$',
                                 f.read(), re.M)
        # The suites of a kernel without a class (depends on !SCHED_CLASS_DL,
        # !SCHED_CLASS_RT) are for the tiny cells that need that option; every
        # other suite is for every cell.
        options = [o for o, deps in entries if '!SCHED_' not in deps]
        self.assertGreaterEqual(len(options), 3)
        seen = 0
        for cell in matrix.load().get('tiny', []):
            absent = [o for o, deps in entries
                      if re.search(rf'!{cell["needs"]}\b', deps)]
            seen += len(absent)
            with open(os.path.join(root, cell['kunitconfig']), encoding='utf-8') as f:
                lines = f.read().splitlines()
            with self.subTest(cell=cell['name']):
                self.assertIn(f'# CONFIG_{cell["needs"]} is not set', lines)
                for option in absent:
                    self.assertIn(f'CONFIG_{option}=y', lines)
        self.assertGreater(seen, 0)
        for cell in matrix.load()['cells']:
            with open(os.path.join(root, cell['kunitconfig']), encoding='utf-8') as f:
                lines = f.read().splitlines()
            with self.subTest(cell=cell['name']):
                for option in options:
                    self.assertIn(f'CONFIG_{option}=y', lines)
                smp = 'CONFIG_SMP=y' if cell['smp'] else '# CONFIG_SMP is not set'
                self.assertIn(smp, lines)
                self.assertIn('CONFIG_RT_GROUP_SCHED=y', lines)


class InputsTest(unittest.TestCase):
    """What decides a result besides its commit: a change of any is seen."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()  # pylint: disable=consider-using-with
        os.makedirs(os.path.join(self.tmp.name, 'kunitconfigs'))
        self.write('CONFIG_KUNIT=y\n')

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, text):
        with open(os.path.join(self.tmp.name, CELL['kunitconfig']), 'w',
                  encoding='utf-8') as f:
            f.write(text)

    def inputs(self, entry=None, env=None):
        return matrix.inputs(entry or CELL, 'cells', env or {}, self.tmp.name)

    def test_every_input_counts(self):
        base = self.inputs()
        self.assertEqual(base['kunit_timeout'], matrix.KUNIT_TIMEOUT)
        self.assertEqual(base['qemu_args'], '-smp 4')
        self.assertRegex(base['compiler'], r'gcc|unavailable')
        self.assertIn('qemu', base)
        changed = {
            'kunit_timeout': self.inputs(env={'KUNIT_TIMEOUT': '60'}),
            'kconfig_add': self.inputs(env={'SCHED_TINIFY_KCONFIG_ADD': 'CONFIG_X=y'}),
            'entry_sha256': self.inputs({**CELL, 'qemu_args': '-smp 4 -m 512'}),
        }
        for key, other in changed.items():
            with self.subTest(key):
                self.assertNotEqual(base[key], other[key])
        self.write('CONFIG_KUNIT=y\nCONFIG_SMP=y\n')
        self.assertNotEqual(base['kunitconfig_sha256'], self.inputs()['kunitconfig_sha256'])

    def test_builds_have_no_qemu(self):
        entry = {k: CELL[k] for k in matrix.BUILD_FIELDS}
        got = matrix.inputs(entry, 'builds', {}, self.tmp.name)
        self.assertNotIn('qemu', got)
        self.assertNotIn('kunit_timeout', got)

    def test_missing_tool(self):
        got = self.inputs({**CELL, 'compiler': 'no-such-compiler-here'})
        self.assertEqual(got['compiler'], 'unavailable (FileNotFoundError)')


class QueryTest(unittest.TestCase):

    def test_select(self):
        data = matrix.load()
        self.assertEqual([c['name'] for c in matrix.select(data, 'arm-up,x86_64-smp')],
                         ['arm-up', 'x86_64-smp'])
        self.assertEqual(len(matrix.select(data, '')), 4)
        with self.assertRaisesRegex(matrix.MatrixError, 'unknown cell.*nope'):
            matrix.select(data, 'arm-up,nope')

    def test_field(self):
        data = matrix.validate(copy.deepcopy(GOOD))
        self.assertEqual(matrix.field(data, 'x-smp', 'smp'), 'y')
        self.assertEqual(matrix.field(data, 'x-smp', 'cpus'), '4')
        with self.assertRaises(matrix.MatrixError):
            matrix.field(data, 'x-smp', 'nope')

    def test_build_needs(self):
        data = matrix.validate({**copy.deepcopy(GOOD),
                                'builds': [BUILD, {**BUILD, 'name': 'x-nodl', 'needs': 'SCHED_CLASS_DL'}]})
        self.assertEqual(matrix.field(data, 'x-nodl', 'needs', 'builds'), 'SCHED_CLASS_DL')
        # Optional: a build without it has none.
        self.assertEqual(matrix.field(data, 'x-lean', 'needs', 'builds'), '')
        with self.assertRaises(matrix.MatrixError):
            matrix.field(data, 'x-smp', 'needs')

    def test_needs_builds_have_their_section(self):
        root = os.path.join(os.path.dirname(matrix.MATRIX), '..')
        needs = [b for b in matrix.load()['builds'] if 'needs' in b]
        self.assertGreaterEqual(len(needs), 2)
        for build in needs:
            with open(os.path.join(root, build['kunitconfig']), encoding='utf-8') as f:
                lines = f.read().splitlines()
            with self.subTest(build=build['name']):
                section = lines[lines.index(f'# needs {build["needs"]}:'):]
                self.assertIn(f'# CONFIG_{build["needs"]} is not set', section)

    def test_builds(self):
        data = matrix.load()
        builds = matrix.select(data, '', 'builds')
        self.assertGreaterEqual(len(builds), 2)
        root = os.path.join(os.path.dirname(matrix.MATRIX), '..')
        for build in builds:
            with self.subTest(build=build['name']):
                self.assertTrue(os.path.isfile(os.path.join(root, build['kunitconfig'])))
        self.assertEqual(matrix.main(['build', builds[0]['name'], 'arch']), builds[0]['arch'])
        with self.assertRaisesRegex(matrix.MatrixError, 'unknown build.*x86_64-smp'):
            matrix.main(['builds', 'x86_64-smp'])

    def test_main(self):
        self.assertEqual(matrix.main(['patches', 'linux-source-6.1']), 'patches')
        self.assertRegex(matrix.main(['version', 'linux-source-6.1']), r'^6\.1\.')
        self.assertIn('kunitconfig_sha256=', matrix.main(['inputs', 'cell', 'arm-up']))
        cells = json.loads(matrix.main(['github']))
        self.assertEqual(len(cells), 4)
        self.assertIsNone(matrix.main(['check']))
        for argv in ([], ['cells', 'a', 'b'], ['patches', 'linux-source-9'], ['bogus']):
            with self.subTest(argv=argv):
                with self.assertRaises(matrix.MatrixError):
                    matrix.main(argv)


if __name__ == '__main__':
    unittest.main()


class DocsTablesTest(unittest.TestCase):
    """docs/harness.rst shows the tables of ci/matrix.json as matrix.py
    makes them (between ".. BEGIN matrix.py rst KIND" and ".. END")."""

    def test_docs_tables_are_generated(self):
        path = os.path.join(os.path.dirname(matrix.MATRIX), '..', 'docs', 'harness.rst')
        with open(path, encoding='utf-8') as f:
            text = f.read()
        data = matrix.load()
        kinds = re.findall(r'^\.\. BEGIN matrix\.py rst (\w+)$', text, re.M)
        self.assertEqual(sorted(kinds), ['cells', 'tiny'])
        for kind in kinds:
            block = re.search(rf'^\.\. BEGIN matrix\.py rst {kind}\n\n(.*?)\n\n\.\. END$',
                              text, re.M | re.S)
            self.assertIsNotNone(block, kind)
            self.assertEqual(block.group(1), matrix.rst_table(data, kind),
                             f'docs/harness.rst: regenerate with scripts/matrix.py rst {kind}')
