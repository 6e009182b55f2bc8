"""Tests of sched_tinify/sizes.py, on the layout of results/PKG/size/ made by hand."""

import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from sched_tinify import sizes  # noqa: E402  pylint: disable=wrong-import-position

# A fake bloat-o-meter: says what it was asked.
FAKE_BLOAT = '''import os, sys
prefix = sys.argv[2]
print("add/remove: nm " + os.path.basename(prefix) + "nm " +
      ("runs" if os.access(prefix + "nm", os.X_OK) else "missing"))
'''


class SizesTest(unittest.TestCase):

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.results = os.path.join(self.dir, 'size')
        self.tree = os.path.join(self.dir, 'tree')
        os.makedirs(os.path.join(self.tree, 'scripts'))
        with open(os.path.join(self.tree, 'scripts', 'bloat-o-meter'), 'w',
                  encoding='utf-8') as f:
            f.write(FAKE_BLOAT)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def put(self, arch, variant, step, sched, vmlinux, structs=(3000, 1200),
            skipped=None, memory=None):
        d = os.path.join(self.results, arch, variant, step)
        os.makedirs(d)
        if skipped:
            with open(os.path.join(d, 'skipped'), 'w', encoding='utf-8') as f:
                f.write(skipped + '\n')
            return
        with open(os.path.join(d, 'size'), 'w', encoding='utf-8') as f:
            f.write('vmlinux %d %d %d %d\n' % (vmlinux + (sum(vmlinux),)))
            f.write('kernel/sched/built-in.a %d %d %d %d\n' % (sched + (sum(sched),)))
            f.write('kernel/sched/core.o 9193 10 0 9203\n')
        with open(os.path.join(d, 'structs'), 'w', encoding='utf-8') as f:
            f.write('task_struct %d\nrq %d\n' % structs)
        with open(os.path.join(d, 'vmlinux'), 'w', encoding='utf-8') as f:
            f.write('elf\n')
        if memory:
            with open(os.path.join(d, 'memory'), 'w', encoding='utf-8') as f:
                f.write(memory + '\n')

    def test_struct_sizes(self):
        """sizeof() as kbuild's own command for build_policy.o compiles it, its quoted words
        unquoted as its shell would; worked out by hand for the host's LP64 gcc."""
        bdir = os.path.join(self.dir, 'build')
        os.makedirs(os.path.join(bdir, 'kernel', 'sched'))
        os.makedirs(os.path.join(self.tree, 'kernel', 'sched'))
        for name, text in (
                ('build_policy.c', '_Static_assert(sizeof(NAME) == 4, NAME);\n'
                                   '#include "sched.h"\nint policy;\n'),
                ('sched.h', 'struct task_struct { char a[1344]; };\n'
                            'struct rq { long b[3]; char c; };\n')):
            with open(os.path.join(self.tree, 'kernel', 'sched', name), 'w',
                      encoding='utf-8') as f:
                f.write(text)
        for prefix in ('cmd_', 'savedcmd_'):  # 6.1's; 6.3's
            with self.subTest(prefix), open(os.path.join(
                    bdir, 'kernel', 'sched', '.build_policy.o.cmd'), 'w', encoding='utf-8') as f:
                f.write(f'{prefix}kernel/sched/build_policy.o := gcc -Wp,-MMD,kernel/sched/'
                        '.build_policy.o.d -O2 -DNAME=\'"a b"\' -c -o kernel/sched/'
                        f'build_policy.o {self.tree}/kernel/sched/build_policy.c\n\n'
                        'deps_kernel/sched/build_policy.o := \\\n')
                f.flush()
                # 1344 chars; 3 longs and a char, padded to a multiple of 8: 32.
                self.assertEqual(sizes.struct_sizes(bdir, self.tree),
                                 {'task_struct': 1344, 'rq': 32})

    def test_changes_against_the_baseline(self):
        # Pitre's 2017 figures: dec 32155 -> 24108 is -8047, -25.0%.
        self.put('arm', 'tiny', '00-baseline', (28623, 3404, 128), (900000, 90000, 9000))
        self.put('arm', 'tiny', '05-last', (28615, 3404, 128), (899992, 90000, 9000))
        self.put('arm', 'dl-off', '05-last', (20734, 3334, 40), (890000, 89000, 8000),
                 structs=(2600, 900))
        text = sizes.render(self.results, self.tree, ['00-baseline', '05-last'])
        self.assertIn('| tiny | 00-baseline | 28623 | 3404 | 128 | 32155 |  | 999000 |  | '
                      '3000 | 1200 |', text)
        self.assertIn('| tiny | 05-last | 28615 | 3404 | 128 | 32147 | -8 (-0.0%) | 998992 | '
                      '-8 (-0.0%) |', text)
        self.assertIn('| dl-off | 05-last | 20734 | 3334 | 40 | 24108 | -8047 (-25.0%) | '
                      '987000 | -12000 (-1.2%) | 2600 | 900 |', text)
        # The baseline first, then the variants.
        self.assertLess(text.index('| tiny | 05-last'), text.index('| dl-off |'))

    def test_memory_available(self):
        self.put('arm', 'tiny', '00-baseline', (100, 10, 1), (1000, 100, 10),
                 memory='Memory: 52336K/65536K available (1234K kernel code, 100K rwdata)')
        self.put('arm', 'tiny', '05-last', (90, 10, 1), (990, 100, 10),
                 memory='Memory: 52344K/65536K available (1230K kernel code, 100K rwdata)')
        self.put('arm', 'dl-off', '05-last', (90, 10, 1), (990, 100, 10))
        text = sizes.render(self.results, self.tree, ['00-baseline', '05-last'])
        self.assertIn('| 3000 | 1200 | 52336 |', text)
        self.assertIn('| 3000 | 1200 | 52344 (+8) |', text)
        self.assertIn('| dl-off | 05-last | 90 | 10 | 1 | 101 | -10 (-9.0%) | 1100 | -10 (-0.9%) '
                      '| 3000 | 1200 | ? |', text)
        self.assertIsNone(sizes.available('Memory: garbled'))

    def test_skipped_variant_and_bloat_o_meter_prefix(self):
        self.put('arm', 'tiny', '00-baseline', (100, 10, 1), (1000, 100, 10))
        self.put('arm', 'dl-off', '00-baseline', None, None,
                 skipped='not built: CONFIG_SCHED_CLASS_DL=n not in .config at 00-baseline')
        self.put('arm', 'dl-off', '05-last', (50, 10, 1), (900, 100, 10))
        text = sizes.render(self.results, self.tree, ['00-baseline', '05-last'])
        self.assertIn('| dl-off | 00-baseline | not built: CONFIG_SCHED_CLASS_DL=n', text)
        self.assertIn('add/remove: nm arm-linux-gnueabihf-nm runs', text)
        self.assertIn('tiny 00-baseline -> dl-off 05-last', text)

    def test_no_baseline_no_table(self):
        self.put('x86_64', 'tiny', '05-last', (100, 10, 1), (1000, 100, 10))
        text = sizes.render(self.results, self.tree, ['00-baseline', '05-last'])
        self.assertIn('No tiny build at 00-baseline: no table.', text)

    def test_change(self):
        self.assertEqual(sizes.change(24108, 32155), '-8047 (-25.0%)')
        self.assertEqual(sizes.change(5, 0), 'n/a')


if __name__ == '__main__':
    unittest.main()
