# SPDX-License-Identifier: GPL-2.0
"""Tests of sched_tinify/config.py: ci/matrix.json, its schema, the
targets, the steps and the inputs of a result."""

import copy
import json
import os
import re
import sys
import tempfile
import unittest
from unittest import mock

from tests import faketree

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from sched_tinify import config, parse, render  # noqa: E402 pylint: disable=C0413

GOOD = {
    'kernels': [{'package': 'linux-source-6.1', 'version': '6.1.1-1', 'patches': 'patches',
                 'hook': 'kunit/hook-6.1.patch', 'floor': 'arm-up', 'mutants': 'kunit/mutants'},
                {'package': 'linux-source-6.12', 'version': '6.12.1-1', 'patches': 'patches',
                 'hook': 'kunit/hook-6.12.patch', 'floor': 'arm-smp',
                 'mutants': 'kunit/mutants-6.12'}],
    'arches': {'arm': {'cross_compile': 'arm-linux-gnueabihf-',
                       'compiler': 'arm-linux-gnueabihf-gcc', 'console': 'ttyAMA0'}},
    'targets': [
        {'name': 'arm-up', 'arch': 'arm', 'cpus': 1, 'kunitconfig': ['kunitconfigs/arm-up']},
        {'name': 'arm-smp', 'arch': 'arm', 'cpus': 4, 'kunitconfig': ['kunitconfigs/arm-smp']},
        {'name': 'arm-up-nodl', 'arch': 'arm', 'build_only': True, 'needs': 'SCHED_CLASS_DL',
         'kunitconfig': ['kunitconfigs/build-only/arm-up-nodl']},
        {'name': 'arm-tiny', 'arch': 'arm', 'cpus': 1, 'needs': 'SCHED_CLASS_DL',
         'kunitconfig': ['kunitconfigs/tiny/arm-tiny'],
         'expected': 'kunitconfigs/tiny/arm-tiny.expected'},
        {'name': 'arm-up-sanitize', 'arch': 'arm', 'cpus': 1, 'same_as': 'arm-up',
         'kmemleak': True, 'make': ['UBSAN_SANITIZE_core.o=y'],
         'kunitconfig': ['kunitconfigs/arm-up', 'kunitconfigs/debug/arm-up-sanitize']},
    ],
}


def load(data):
    with tempfile.NamedTemporaryFile('w', suffix='.json') as f:
        json.dump(data, f)
        f.flush()
        return config.load(f.name)


class MatrixTest(unittest.TestCase):
    def test_project_matrix(self):
        data = config.load()
        kinds = [t.kind for t in config.targets(data)]
        for kind in ('cell', 'build', 'tiny', 'debug'):
            self.assertIn(kind, kinds)

    def test_good(self):
        got = config.targets(load(GOOD))
        self.assertEqual([t.kind for t in got], ['cell', 'cell', 'build', 'tiny', 'debug'])
        up, smp = got[0], got[1]
        self.assertEqual((up.smp, up.qemu_args), (False, ''))
        self.assertEqual((smp.smp, smp.qemu_args), (True, '-smp 4'))
        self.assertEqual(got[4].console, 'ttyAMA0')
        self.assertEqual(got[4].make, ('UBSAN_SANITIZE_core.o=y',))

    def test_rejects(self):
        cases = [
            ('no targets', lambda d: d.pop('targets'), "'targets' is a required property"),
            ('unknown field', lambda d: d['targets'][0].update(smp=True),
             'Additional properties are not allowed'),
            ('a cell without cpus', lambda d: d['targets'][0].pop('cpus'), "'cpus'"),
            ('a build with cpus', lambda d: d['targets'][2].update(cpus=1), 'targets/2'),
            ('a tiny cell on 4 CPUs', lambda d: d['targets'][3].update(cpus=4), '1 was expected'),
            ('a tiny cell without needs', lambda d: d['targets'][3].pop('needs'), "'needs'"),
            ('a bad console', lambda d: d['arches']['arm'].update(console='AMA0'), 'AMA0'),
            ('a bad make variable', lambda d: d['targets'][4].update(make=['-j']), '-j'),
            ('defined twice', lambda d: d['targets'].append(copy.deepcopy(d['targets'][0])),
             'defined twice: arm-up'),
            ('unknown arch', lambda d: d['targets'][0].update(arch='mips'), 'no arch mips'),
            ('same_as a debug cell', lambda d: d['targets'][4].update(same_as='arm-tiny'),
             'not a plain cell'),
            ('needs on a cell', lambda d: d['targets'][0].update(needs='SCHED_CLASS_DL'),
             '"needs" is for'),
            ('a missing file', lambda d: d['targets'][0].update(kunitconfig=['nothing']),
             'no file nothing'),
            ('first: a debug cell and no target',
             lambda d: d['kernels'][0].update(first=['arm-up', 'arm-tiny', 'arm-up-sanitize',
                                                     'nope']),
             '"first" names no cell or tiny cell of it: arm-up-sanitize, nope'),
            ('first: twice', lambda d: d['kernels'][0].update(first=['arm-up', 'arm-up']),
             'non-unique'),
            ('first: a tiny cell of the other kernel only', lambda d: (
                d['targets'][3].update(expected={'linux-source-6.12': d['targets'][3][
                    'expected']}), d['kernels'][0].update(first=['arm-tiny'])),
             'kernel linux-source-6.1: "first" names no cell or tiny cell of it: arm-tiny'),
            ('no kernel', lambda d: d.update(kernels=[]), 'kernels'),
            ('a kernel twice', lambda d: d['kernels'].append(copy.deepcopy(d['kernels'][0])),
             'defined twice: linux-source-6.1'),
            ('a kernel without its hook', lambda d: d['kernels'][1].pop('hook'), "'hook'"),
            ('a missing hook', lambda d: d['kernels'][1].update(hook='nothing'),
             'kernel linux-source-6.12: no file nothing'),
            ('a missing folder of mutants', lambda d: d['kernels'][1].update(mutants='nothing'),
             'kernel linux-source-6.12: no list nothing/floor'),
            ('a folder of mutants without the floor\'s list',
             lambda d: d['kernels'][1].update(mutants='kunit/mutants/sched_policy'),
             'kernel linux-source-6.12: no list kunit/mutants/sched_policy/floor'),
            ('a kernel without a floor', lambda d: d['kernels'][1].pop('floor'), "'floor'"),
            ('a kernel without mutants', lambda d: d['kernels'][1].pop('mutants'), "'mutants'"),
            ('a floor that is no cell', lambda d: d['kernels'][0].update(floor='arm-tiny'),
             'kernel linux-source-6.1: the floor arm-tiny is no cell of it'),
            ('expected for an unknown kernel',
             lambda d: d['targets'][3].update(expected={'linux-source-5.10': 'ci/matrix.json'}),
             '"expected" names no kernel: linux-source-5.10'),
            ('a missing expected file of one kernel',
             lambda d: d['targets'][3].update(expected={'linux-source-6.12': 'nothing'}),
             'no file nothing'),
            ('kunitconfig for an unknown kernel',
             lambda d: d['targets'][0].update(kunitconfig={'linux-source-5.10': ['ci/matrix.json']}),
             '"kunitconfig" names no kernel: linux-source-5.10'),
            ('a missing kunitconfig of one kernel',
             lambda d: d['targets'][0].update(kunitconfig={'linux-source-6.1': ['ci/matrix.json'],
                                                           'linux-source-6.12': ['nothing']}),
             'no file nothing'),
            ('an empty kunitconfig of one kernel',
             lambda d: d['targets'][0].update(kunitconfig={'linux-source-6.1': []}),
             'targets/0/kunitconfig'),
        ]
        for what, change, message in cases:
            with self.subTest(what):
                data = copy.deepcopy(GOOD)
                change(data)
                with self.assertRaises(config.ConfigError) as e:
                    load(data)
                self.assertIn(message, str(e.exception))

    def test_unreadable(self):
        with self.assertRaises(config.ConfigError):
            config.load('/nonexistent/matrix.json')

    def test_select(self):
        data = load(GOOD)
        self.assertEqual([t.name for t in config.targets(data, 'arm-smp,arm-up')],
                         ['arm-smp', 'arm-up'])
        self.assertEqual([t.name for t in config.targets(data, kinds=('cell',))],
                         ['arm-up', 'arm-smp'])
        with self.assertRaises(config.ConfigError) as e:
            config.targets(data, 'arm-tiny', ('cell',))
        self.assertIn('unknown cell(s): arm-tiny', str(e.exception))

    def test_kernels(self):
        """Every kernel by default, in the file's order; a tiny cell with an expected file per
        kernel is a target of those kernels, with that kernel's file."""
        data = copy.deepcopy(GOOD)
        data['targets'][3]['expected'] = {'linux-source-6.12': 'kunitconfigs/tiny/arm-nort'}
        data = load(data)
        self.assertEqual([k.package for k in config.kernels(data)],
                         ['linux-source-6.1', 'linux-source-6.12'])
        self.assertEqual([k.hook for k in config.kernels(data, 'linux-source-6.12')],
                         ['kunit/hook-6.12.patch'])
        with self.assertRaisesRegex(config.ConfigError, r'unknown kernel\(s\): 6.12'):
            config.kernels(data, '6.12')
        self.assertNotIn('arm-tiny', [t.name for t in config.targets(data)])
        tiny = config.targets(data, 'arm-tiny', kernel='linux-source-6.12')[0]
        self.assertEqual((tiny.kind, tiny.expected), ('tiny', 'kunitconfigs/tiny/arm-nort'))
        self.assertEqual(config.targets(data, kernel='linux-source-6.1'), config.targets(
            data, 'arm-up,arm-smp,arm-up-nodl,arm-up-sanitize'))

    def test_kunitconfig_per_kernel(self):
        """A target whose fragments are given per kernel is built with that kernel's, and is
        a target of the kernels it names only."""
        data = copy.deepcopy(GOOD)
        data['targets'][3]['kunitconfig'] = {
            'linux-source-6.1': ['kunitconfigs/tiny/arm-tiny'],
            'linux-source-6.12': ['kunitconfigs/tiny/arm-nort', 'kunitconfigs/tiny/arm-tiny']}
        data['targets'][0]['kunitconfig'] = {'linux-source-6.12': ['kunitconfigs/arm-up']}
        data['kernels'][0]['floor'] = 'arm-smp'
        data = load(data)
        old, new = (config.targets(data, kernel=k) for k in ('linux-source-6.1',
                                                              'linux-source-6.12'))
        self.assertEqual([t.name for t in old], ['arm-smp', 'arm-up-nodl', 'arm-tiny',
                                                 'arm-up-sanitize'])
        self.assertEqual(old[2].kunitconfig, ('kunitconfigs/tiny/arm-tiny',))
        self.assertEqual([t.name for t in new], ['arm-up', 'arm-smp', 'arm-up-nodl', 'arm-tiny',
                                                 'arm-up-sanitize'])
        self.assertEqual(new[3].kunitconfig, ('kunitconfigs/tiny/arm-nort',
                                              'kunitconfigs/tiny/arm-tiny'))
        self.assertEqual(new[0].kunitconfig, ('kunitconfigs/arm-up',))


@faketree.needs_tree
class KunitconfigTest(unittest.TestCase):
    """The project's kunitconfigs: every cell enables every suite with its
    SMP setting; a tiny cell turns its option off and enables the suites
    of a kernel without it; a build-only configuration that needs an
    option turns it off in its section."""

    def options(self, path, after=''):
        """A fragment's options (from the line @after on), read by the tree's kunit_config."""
        text = config.read(os.path.join(config.REPO, path))
        return {e.name: e.value for e in parse.tool(faketree.TREE, 'kunit_config')
                .parse_from_string(text[text.index(after):]).as_entries()}

    def test_kunitconfigs_match_the_suites_and_the_targets(self):
        with open(os.path.join(config.REPO, 'kunit', 'kernel', 'sched', 'Kconfig.kunit'),
                  encoding='utf-8') as f:
            entries = re.findall(r'^config (\w+_KUNIT_TEST)\n(?:\t.*\n)*?\tdepends on (.*)$',
                                 f.read(), re.M)
        options = [o for o, deps in entries if '!SCHED_' not in deps]
        self.assertGreaterEqual(len(options), 3)
        every = config.targets(config.load())
        seen = 0
        for t in [t for t in every if t.kind == 'tiny']:
            absent = [o for o, deps in entries if re.search(rf'!{t.needs}\b', deps)]
            seen += len(absent)
            got = self.options(t.kunitconfig[0])
            with self.subTest(t.name):
                self.assertEqual(got.get(t.needs), 'n')
                for option in absent:
                    self.assertEqual(got.get(option), 'y', option)
        self.assertGreater(seen, 0)
        for t in [t for t in every if t.kind in ('cell', 'debug')]:
            got = self.options(t.kunitconfig[0])
            with self.subTest(t.name):
                for option in options + ['RT_GROUP_SCHED']:
                    self.assertEqual(got.get(option), 'y', option)
                self.assertEqual(got.get('SMP'), 'y' if t.smp else 'n')

    def test_needs_builds_have_their_section(self):
        needs = [t for t in config.targets(config.load(), kinds=('build',)) if t.needs]
        self.assertGreaterEqual(len(needs), 2)
        for t in needs:
            with self.subTest(t.name):
                self.assertEqual(self.options(t.kunitconfig[0], f'# needs {t.needs}:\n').get(
                    t.needs), 'n')


class DocsTest(unittest.TestCase):
    def test_the_table_of_docs_harness_is_the_file_s(self):
        with open(os.path.join(config.REPO, 'docs', 'harness.rst'), encoding='utf-8') as f:
            text = f.read()
        begin = '.. BEGIN python3 -m sched_tinify list --rst\n\n'
        table = text[text.index(begin) + len(begin):text.index('\n\n.. END')]
        data = config.load()
        self.assertEqual(table, '\n\n'.join(
            f'``{k.package}``:\n\n' + render.targets_rst(config.targets(data, kernel=k.package))
            for k in config.kernels(data)))

    def test_the_written_tables_have_a_row_per_target(self):
        """The tables that say what each build-only configuration and each debug cell covers
        (written by hand) have a row per target of that kind in ci/matrix.json, in its order,
        and a debug cell's row names its plain cell."""
        targets = config.targets(config.load())
        for doc, head, want in (
                ('harness.rst', 'build ', [[t.name] for t in targets if t.kind == 'build']),
                ('checks.rst', 'debug cell ', [[t.name, t.same_as] for t in targets
                                               if t.kind == 'debug'])):
            with self.subTest(doc):
                text = config.read(os.path.join(config.REPO, 'docs', doc))
                self.assertEqual(text.count('\n' + head), 1)
                lines = text[text.index('\n' + head) + 1:].splitlines()[2:]
                rows = [x.split()[:len(want[0])] for x in lines[:[x[:1] for x in lines].index(
                    '=')] if x[:1].strip()]
                self.assertEqual(rows, want)


class InputsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        for name in ('a', 'b', 'exp'):
            with open(os.path.join(self.tmp.name, name), 'w', encoding='utf-8') as f:
                f.write(name)
        patcher = mock.patch.object(config, 'REPO', self.tmp.name)
        patcher.start()
        self.addCleanup(patcher.stop)
        versions = mock.patch.object(config, 'first_line', lambda *argv: f'{argv[0]} 1.0')
        versions.start()
        self.addCleanup(versions.stop)
        self.target = config.Target(name='t', arch='arm', cross_compile='', compiler='gcc',
                                    console='ttyAMA0', kunitconfig=('a', 'b'), expected='exp')

    def key(self, target=None, sha='1' * 40, env=None):
        return config.key(config.inputs(target or self.target, sha, env or {}))

    def test_every_input_counts(self):
        first = self.key()
        self.assertEqual(self.key(), first)
        self.assertNotEqual(self.key(sha='2' * 40), first)
        self.assertNotEqual(self.key(env={'KUNIT_TIMEOUT': '99'}), first)
        self.assertNotEqual(self.key(config.Target(**{**self.target.__dict__, 'cpus': 2})),
                            first)
        # Each file against the key just before it changed (a kunitconfig fragment, the
        # expected results).
        for name in ('b', 'exp'):
            with self.subTest(name):
                before = self.key()
                with open(os.path.join(self.tmp.name, name), 'a', encoding='utf-8') as f:
                    f.write('!')
                self.assertNotEqual(self.key(), before)

    def test_builds_have_no_qemu(self):
        build = config.Target(**{**self.target.__dict__, 'build_only': True, 'expected': ''})
        got = config.inputs(build, '1' * 40, {})
        self.assertNotIn('qemu', got)
        self.assertNotIn('kunit_timeout', got)
        self.assertEqual(got['compiler'], 'gcc 1.0')



class FirstLineTest(unittest.TestCase):
    def test_tools(self):
        self.assertEqual(config.first_line('sh', '-c', 'echo one; echo two'), 'one')
        self.assertEqual(config.first_line('/nonexistent/gcc', '--version'),
                         'unavailable (FileNotFoundError)')
        self.assertEqual(config.first_line('true'), 'unavailable (no output)')

    def test_asked_once(self):
        """A run judges thousands of results: each tool is asked once."""
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, 'asked')
            for _ in range(3):
                self.assertEqual(config.first_line('sh', '-c', f'echo x >> {log}; echo v1'), 'v1')
            self.assertEqual(config.read(log), 'x\n')


class StepsTest(unittest.TestCase):
    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_series(self):
        self.write('0001-a.patch', '')
        self.write('series', '# the series\n0001-a.patch  # first\n\n')
        self.assertEqual(config.read_series(self.tmp.name), ['0001-a.patch'])
        self.write('series', '0001-a.patch\n0002-b.patch')
        with self.assertRaisesRegex(config.ConfigError, '0002-b.patch'):
            config.read_series(self.tmp.name)

    def test_steps(self):
        path = self.write('steps', f'00-baseline {"a" * 40}\n01-x {"b" * 40}\n')
        self.assertEqual(config.read_steps(path)[1], ('01-x', 'b' * 40))
        for text, message in ((f'01-x {"b" * 40}\n', 'first step'), ('00-baseline\n', 'every line'),
                              ('', 'first step')):
            with self.subTest(text):
                with self.assertRaisesRegex(config.ConfigError, message):
                    config.read_steps(self.write('steps', text))
        with self.assertRaisesRegex(config.ConfigError, 'prepare-only'):
            config.read_steps(os.path.join(self.tmp.name, 'none'))

    def test_remove(self):
        """A file, a folder and a link go (a link's target stays); what is not there is
        no error."""
        kept = self.write('kept', '')
        folder = os.path.join(self.tmp.name, 'folder')
        os.makedirs(os.path.join(folder, 'sub'))
        link = os.path.join(self.tmp.name, 'link')
        os.symlink(folder, link)
        # A path twice (a touched .c file's object among those of kernel/sched/): once.
        file = self.write('file', '')
        config.remove(file, link, os.path.join(self.tmp.name, 'none'), file)
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ['folder', 'kept'])
        config.remove(folder)
        self.assertEqual(os.listdir(self.tmp.name), [os.path.basename(kept)])


if __name__ == '__main__':
    unittest.main()
