# SPDX-License-Identifier: GPL-2.0
"""Tests of sched_tinify/budget.py: the items in order, what they cost,
which objects a step rebuilds; and the test command's deadline loop on a
fake package."""

import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from tests import faketree
from tests.test_run import FAKE, Package

sys.path.insert(0, faketree.REPO)
from sched_tinify import budget, config, judge, mutants, run  # noqa: E402 pylint: disable=C0413

STEPS = ['00-baseline', '01-a', '02-b', '03-c']
# A mutant the fake kunit.py kills (tests/test_run.py: it fails a mutant's tree).
KILLED = '# file: Makefile\n# step: 00\ns/^NAME = Fake$/NAME = Killed/\n'
ALL = config.targets(config.load())
KERNEL = config.kernels(config.load())[0]


def costs(full=None, frac=None, kept=()):
    return budget.Costs(ALL, full or {}, frac or (
        lambda name, a, b: {('00-baseline', '01-a'): 0.0, ('01-a', '02-b'): 0.0}.get(
            (a, b), 1.0)), budget.cells_boots(ALL), {'subset': 10, 'arm-nosys': 5},
        lambda name, step, sched_only: (name, step, sched_only) in kept)


def found(repeat=5, first=None, floor='arm-up', floor_mutants=5):
    has = {t.name: STEPS[2:] if t.needs == 'SCHED_ATTR_SYSCALLS' else STEPS[1:]
           for t in ALL if t.kind == 'tiny'}
    return budget.items(ALL, STEPS, has, repeat, {'floor': floor_mutants, 'subset': 10,
                                                  'all': 40, 'arm-nosys': 5},
                        KERNEL.first if first is None else first, floor)


def cmd_test(main, args, *rest):
    """The test command's two phases for one kernel: its floor, then the rest."""
    main.LOOPS.clear()
    args.phase = 'floor'
    rc = main.cmd_test(args, *rest)
    args.phase = 'rest'
    return rc or main.cmd_test(args, *rest)


class CostTest(unittest.TestCase):
    def test_unmeasured_targets_are_cold_on_a_slow_machine(self):
        c = costs()
        self.assertEqual(c.speed, budget.SLOW)
        self.assertEqual(c.full('x86_64-up'), 2 * budget.COLD['x86_64'])
        self.assertEqual(c.full('arm-nosys'), 2 * budget.COLD['arm'])
        self.assertEqual(c.full('arm-up-sanitize'),
                         round(2 * budget.COLD['arm'] * budget.DEBUG_FACTOR))

    def test_a_measured_build_sets_the_speed(self):
        c = costs(full={'arm-up': budget.COLD['arm'] // 2})
        self.assertEqual((c.speed, c.full('arm-up')), (0.5, budget.COLD['arm'] // 2))
        self.assertEqual(c.full('x86_64-smp'), budget.COLD['x86_64'] // 2)
        c = costs(full={'arm-up': budget.COLD['arm'] // 2, 'x86_64-smp': budget.COLD['x86_64']})
        self.assertEqual(c.full('x86_64-up'), budget.COLD['x86_64'])

    def test_a_build_measured_during_the_run_sets_the_speed(self):
        c = costs()
        c.ran(budget.Item('x', {'arm-up': STEPS[:1]}), STEPS, {'arm-up': budget.COLD['arm']})
        self.assertEqual((c.speed, c.full('x86_64-up')), (1.0, budget.COLD['x86_64']))

    def test_steps_cost_what_they_rebuild(self):
        c = costs(full={'x86_64-up': 300})
        step = budget.STEP
        item = budget.Item('x', {'x86_64-up': STEPS})
        # A first build in full; 01, 02 rebuild nothing, 03 all.
        self.assertEqual(c(item, STEPS), 4 * step + 600)
        c.ran(item, STEPS, {'x86_64-up': 300})
        self.assertEqual(c(budget.Item('y', {'x86_64-up': ['02-b']}), STEPS), step + 300)
        self.assertEqual(c(budget.Item('z', {'x86_64-up': ['00-baseline']}, sched_only=True),
                           STEPS), budget.SCHED_ONLY)

    def test_fresh_results_cost_their_judging(self):
        """A step with a fresh result is not built: it costs KEPT, and the folder stays where it
        was (a kernel/sched/-only result is fresh for a sched_only item only)."""
        step, x = budget.STEP, 'x86_64-up'
        c = costs(full={x: 300}, kept={(x, '00-baseline', False), (x, '01-a', False),
                                       (x, '02-b', True)})
        item = budget.Item('x', {x: STEPS[:3]})
        self.assertEqual(c(item, STEPS), 2 * budget.KEPT + step + 300)
        c(budget.Item('other', {x: ['03-c']}), STEPS)  # estimated, not run: it moves nothing
        c.ran(item, STEPS, {x: 300})
        self.assertEqual(c.at, {x: '02-b'})
        # 02-b was built first; 01-a to 02-b would rebuild nothing, 02-b to 03-c all.
        self.assertEqual(c(budget.Item('y', {x: ['03-c']}), STEPS), step + 300)
        self.assertEqual(c(budget.Item('z', {x: STEPS[:3]}, sched_only=True), STEPS),
                         2 * budget.SCHED_ONLY + budget.KEPT)
        # An item all kept leaves the folder at 02-b (01-a to 02-b would rebuild nothing).
        c(w := budget.Item('w', {x: STEPS[:2]}), STEPS)
        c.ran(w, STEPS, {x: 300})
        self.assertEqual(c(budget.Item('v', {x: ['02-b']}), STEPS), step + 300)

    def test_a_repeat_round_boots_every_variant(self):
        # The four cells of ci/matrix.json: an SMP cell in 4 variants, a UP cell in 2.
        self.assertEqual(budget.cells_boots(ALL), 4 + 2 + 4 + 2)

    def test_other_items(self):
        c = costs(full={'arm-up': 200})
        self.assertEqual(c(budget.Item('r', repeat=5), STEPS),
                         5 * budget.cells_boots(ALL) * budget.REPEAT_BOOT)
        self.assertEqual(c(budget.Item('m', mutants='arm-nosys'), STEPS), 5 * budget.MUTANT)


class CountTest(unittest.TestCase):
    def test_a_tiny_cell_counts_the_mutants_it_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, 's'))
            for name, head in (('01-a', '# tiny: SCHED_CLASS_RT'),
                               ('02-b', '# tiny cells: arm-nort'),
                               ('03-c', '# tiny: SCHED_CLASS_DL'), ('04-d', '')):
                config.write(os.path.join(tmp, 's', f'{name}.sed'),
                             f'# file: kernel/sched/core.c\n# step: 00\n{head}\ns/a/b/\n')
            # Hidden: not a folder of mutants.
            work = run.Work('pkg', os.path.join(tmp, '.w'), os.path.join(tmp, '.results'),
                            kernel=KERNEL)
            steps = [(s, s[:2] * 20) for s in STEPS]
            by = {t.name: t for t in ALL}
            with mock.patch.object(run, 'options', return_value={'SCHED_CLASS_RT',
                                                                 'SCHED_CLASS_DL'}):
                # Fresh: two runs with their own key; stale: one with another's.
                for m, t, key in (('01-a', 'arm-nort', 'arm-nort'), ('04-d', 'arm-up', 'arm-up'),
                                  ('04-d', 'arm-smp', 'arm-up')):
                    inputs = run.inputs_of(by[key], '03' * 20, env=mutants.env(),
                                           overlay=run.Overlay.mutant(os.path.realpath(
                                               os.path.join(tmp, 's', f'{m}.sed')),
                                               'kernel/sched/core.c'))
                    config.write(os.path.join(work.sub('mutants', f's/{m}').out(STEPS[-1], t),
                                              'result.json'),
                                 json.dumps({'complete': True, 'key': config.key(inputs)}))
                config.write(os.path.join(tmp, 'floor'), os.path.join(tmp, 's', '04-d.sed'))
                got, todo = budget.count_mutants(work, ALL, steps, tmp, 'arm-up')
                tiny = [t for t in ALL if t.kind == 'tiny']
                none = budget.count_mutants(work, tiny, steps, tmp, '')[0]['all']
            # Runs: the two cells' mutants in each of the four cells.
            self.assertEqual((got['arm-nort'], got['x86_64-nort'], got['arm-tiny'], got['all']),
                             (2, 1, 1, 8))
            self.assertEqual((todo['arm-nort'], todo['x86_64-nort'], todo['all']), (1, 1, 7))
            # The floor's list, in the floor's cell only: its run there is fresh.
            self.assertEqual((got['floor'], todo['floor'], got['subset']), (1, 0, 0))
            # No cell, no cells' mutants item.
            self.assertEqual(none, 0)


class ItemsTest(unittest.TestCase):
    def test_order(self):
        names = [i.name for i in found()]
        self.assertEqual(names[:7], [
            'the floor: arm-up at the baseline and the last step',
            'the floor: the 5 mutant run(s) of its list in arm-up at the last step',
            'x86_64-smp at the baseline and the last step',
            'the tiny cell arm-nosys at 03', 'the tiny cell x86_64-nort at 03',
            'x86_64-up at the baseline and the last step',
            'arm-smp at the baseline and the last step'])
        self.assertEqual([i.floor for i in found()][:3], [True, True, False])
        self.assertEqual(found()[1].needs, [('arm-up', '03-c')])
        self.assertEqual(names[7], 'the tiny cell x86_64-tiny at 03')
        # The floor is run once: its cell is no other item's at the baseline and the last step.
        self.assertEqual(sum('arm-up at the baseline' in n for n in names), 1)
        # Another floor; one without mutants has no mutants' item (the report says it lacks one).
        self.assertEqual([i.name for i in found(floor='arm-smp', floor_mutants=0)][:2], [
            'the floor: arm-smp at the baseline and the last step',
            'arm-up at the baseline and the last step'])
        self.assertEqual([i for i in found(floor='') if i.floor], [])
        self.assertLess(names.index('5 boots per variant of every cell at the last step'),
                        names.index('every step in arm-up and x86_64-smp'))
        self.assertLess(names.index('the 10 mutant run(s) of kunit/mutants/ci-subset'),
                        names.index('the debug cells (x86_64-smp-sanitize, arm-up-sanitize) '
                                    'at the last step'))
        self.assertIn('the tiny cell arm-nosys at 02', names)
        self.assertIn('the tiny cell x86_64-nort at 01, 02', names)
        self.assertEqual(names[-1], 'the 5 mutant run(s) of the tiny cell arm-nosys')
        debug = [i for i in found() if i.name.startswith('the debug cells')][0]
        self.assertEqual(debug.needs, [('x86_64-smp', '03-c'), ('arm-up', '03-c')])
        self.assertFalse(any('boots' in i.name for i in found(repeat=0)))
        # ci/matrix.json's "first" decides what comes first.
        self.assertEqual([i.name for i in found(first=['x86_64-up', 'arm-tiny'])][2:5], [
            'x86_64-up at the baseline and the last step', 'the tiny cell arm-tiny at 03',
            'x86_64-smp at the baseline and the last step'])
        # A whole build is held against a whole baseline build, never a kernel/sched/ one.
        builds = {t.name for t in ALL if t.build_only}
        whole = [i for i in found() if i.work and set(i.work) <= builds and not i.sched_only]
        self.assertEqual(len(whole), 2)
        for i in whole:
            self.assertTrue(all('00-baseline' in s for s in i.work.values()), i.name)


class RebuiltTest(unittest.TestCase):
    def test_share_of_objects(self):
        with tempfile.TemporaryDirectory() as d:
            tree = os.path.join(d, 'pkg', 'linux')
            os.makedirs(tree)
            subprocess.run(['git', 'init', '-q', tree], check=True)
            shas = []
            for path, text in (('include/a.h', '1'), ('kernel/x.c', '1'), ('include/a.h', '2')):
                os.makedirs(os.path.join(tree, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(tree, path), 'w', encoding='utf-8') as f:
                    f.write(text)
                subprocess.run(['git', '-C', tree, 'add', '-A'], check=True)
                subprocess.run(['git', '-C', tree, '-c', 'user.name=t', '-c', 'user.email=t@t',
                                'commit', '-q', '-m', path], check=True)
                shas.append(run.git(tree, 'rev-parse', 'HEAD').stdout.strip())
            out = os.path.join(d, 'pkg', 'build', 'c', 'kernel')
            os.makedirs(out)
            for name, deps in (('x', 'kernel/x.c include/a.h'), ('y', 'kernel/y.c'),
                               ('z', 'kernel/z.c include/a.h'), ('w', 'kernel/w.c')):
                with open(os.path.join(out, f'.{name}.o.cmd'), 'w', encoding='utf-8') as f:
                    f.write(''.join(f'  ../../linux/{p} \\\n' for p in deps.split()))
            work = run.Work('pkg', d, os.path.join(d, 'results'), kernel=KERNEL)
            r = budget.Rebuilt(work, list(zip(['00', '01', '02'], shas)))
            self.assertEqual((r('c', '00', '01'), r('c', '01', '02'), r('c', '02', '00')),
                             (0.25, 0.5, 0.5))
            self.assertEqual((r('none', '00', '01'), r('c', None, '01')), (1.0, 1.0))
            # A folder read while empty, then built: its objects count.
            shutil.copytree(out, os.path.join(d, 'pkg', 'build', 'none', 'kernel'))
            self.assertEqual(r('none', '00', '01'), 0.25)


class OptionStepsTest(unittest.TestCase):
    def test_the_steps_that_define_each_option(self):
        with tempfile.TemporaryDirectory() as d:
            tree = os.path.join(d, 'pkg', 'linux')
            for folder in ('init', 'kernel/sched'):
                os.makedirs(os.path.join(tree, folder))
            subprocess.run(['git', 'init', '-q', tree], check=True)
            # The tests' stand-ins (Kconfig.kunit) do not count.
            with open(os.path.join(tree, 'kernel', 'sched', 'Kconfig.kunit'), 'w',
                      encoding='utf-8') as f:
                f.write('config SCHED_CLASS_RT\n\tbool "RT"\n')
            shas = []
            # An option counts from the step that gives it a prompt: at
            # 01, SCHED_CLASS_RT has none and cannot be turned off.
            for text in ('config FOO\n\tbool "foo"\n',
                         'config SCHED_CLASS_DL\n\tbool "DL" if EXPERT\n'
                         'config SCHED_CLASS_RT\n\tdef_bool y\n',
                         'config SCHED_CLASS_DL\n\tbool "DL" if EXPERT\n'
                         'config SCHED_CLASS_RT\n\tbool "RT" if EXPERT\n'):
                with open(os.path.join(tree, 'init', 'Kconfig'), 'w', encoding='utf-8') as f:
                    f.write(text)
                subprocess.run(['git', '-C', tree, 'add', '-A'], check=True)
                subprocess.run(['git', '-C', tree, '-c', 'user.name=t', '-c', 'user.email=t@t',
                                'commit', '-q', '-m', 'x'], check=True)
                shas.append(run.git(tree, 'rev-parse', 'HEAD').stdout.strip())
            work = run.Work('pkg', d, os.path.join(d, 'results'), kernel=KERNEL)
            got = budget.option_steps(work, ALL, list(zip(['00', '01', '02'], shas)))
            self.assertEqual((got['arm-tiny'], got['arm-nort'], got['arm-nosys']),
                             (['01', '02'], ['02'], []))


class StaticChecksTest(unittest.TestCase):
    def test_each_failed_check_is_named(self):
        """With its exit status: 1 is red, anything else (a check that
        could not run: no tree, no shellcheck, a signal) the harness's."""
        main = importlib.import_module('sched_tinify.__main__')
        work = run.Work('pkg', '/abs/work', '/abs/results/pkg', '/abs/work/pkg/steps',
                        '/abs/series')
        # The children run from the repository: they get this run's
        # folders as absolute paths, and every kernel's series (checkpatch.sh), not this one's.
        env = 'test "$SCHED_TINIFY_WORK" = /abs/work && test -z "${SCHED_TINIFY_SERIES-}"'
        with mock.patch.object(main, 'CHECKS', (('one', ['true']), ('two', ['false']),
                                                ('three', ['sh', '-c', 'exit 3']),
                                                ('env', ['sh', '-c', env]))), \
                mock.patch('sys.stdout'):
            self.assertEqual(main.static_checks(work, 0), {'two': 1, 'three': 3})
        self.assertEqual([main.checks_status(f) for f in ({}, {'a': 1}, {'a': 1, 'b': 2},
                                                           {'a': -15})], [0, 1, 2, 2])


class DeadlineTest(unittest.TestCase):
    def test_a_result_half_redone_at_the_deadline_is_put_back(self):
        """An item stopped at the deadline (or failed) while it redoes a step an earlier item ran
        (a whole build after a kernel/sched/ one) puts the earlier result back, so what that one
        found stands (a new warning, a harness failure); a step it ran first and did not end is
        left (not planned), and one it ended, a harness failure too, is judged (planned)."""
        main = importlib.import_module('sched_tinify.__main__')
        lean, steps = 'x86_64-smp-lean', [(s, s[:2] * 20) for s in STEPS]
        first = budget.Item('sched', {lean: [STEPS[0], STEPS[-1]]}, sched_only=True)
        second = budget.Item('whole', {lean: STEPS})
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        work = run.Work('pkg', tmp.name, os.path.join(tmp.name, 'results'), kernel=KERNEL)

        def result(step):
            return run.load(work, step, lean)
        deadline = run.Stopped(run.DEADLINE)
        for earlier, cut, stop, planned, rc in (
                ({'warnings': ['new']}, STEPS[3], deadline, [0, 1, 2, 3], 0),
                ({'harness_error': 'x'}, STEPS[3], deadline, [0, 1, 2, 3], 0),
                ({'warnings': ['new']}, STEPS[3], run.HarnessError('y'), [0, 1, 2, 3], 2),
                ({}, STEPS[1], deadline, [0, 3], 0)):
            def run_steps(_w, _k, _t, _s, todo, sched_only, earlier=earlier, cut=cut, stop=stop):
                for s in todo[lean]:
                    fields = earlier if sched_only and s == STEPS[-1] else \
                        {'harness_error': 'y'} if s == STEPS[1] and not sched_only else {}
                    config.write(os.path.join(work.out(s, lean), 'result.json'), json.dumps(
                        dict(key='k', complete=s != cut or sched_only,
                             scope='sched' if sched_only else 'whole', **fields)))
                    if s == cut and not sched_only:
                        raise stop
            plans = []

            def report(*a, **_):
                """The plan, and the exit status of the items' sections (not the floor's)."""
                plans.append(a[5])
                return judge.exit_status([p for sec in a[8][1:] for p in sec[2]], 'GREEN')
            args = mock.Mock(no_checks=True, no_matrix=False, repeat=0, budget=60, start=0,
                             mutants='/none')
            shutil.rmtree(work.results, ignore_errors=True)
            with self.subTest(cut=cut, stop=stop), \
                    mock.patch.object(budget, 'count_mutants', return_value=({}, {})), \
                    mock.patch.object(budget, 'option_steps', return_value={}), \
                    mock.patch.object(budget, 'items', return_value=[first, second]), \
                    mock.patch.object(budget, 'measured', return_value={}), \
                    mock.patch.object(budget, 'Rebuilt'), \
                    mock.patch.object(budget, 'Costs', return_value=mock.Mock(return_value=1)), \
                    mock.patch.object(main, 'run_steps', run_steps), \
                    mock.patch.object(main, 'report', report), \
                    mock.patch('time.time', return_value=0), mock.patch('sys.stdout'), \
                    mock.patch('sys.stderr'):
                self.assertEqual(cmd_test(main, args, work, ALL, steps, None), rc)
                self.assertEqual(plans, [{lean: [STEPS[i] for i in planned]}])
                self.assertEqual(result(STEPS[0])['scope'], 'whole')  # ended: kept
                self.assertEqual(result(STEPS[1]), dict(key='k', complete=cut != STEPS[1],
                                                        scope='whole', harness_error='y'))
                self.assertEqual(result(STEPS[-1]), dict(key='k', complete=True, scope='sched',
                                                         **earlier))
                self.assertFalse(os.path.exists(os.path.join(tmp.name, 'pkg', 'aside')))

    def test_a_planned_result_another_item_redoes_is_put_back(self):
        """The repeats build a cell's last step again when its folder holds another kernel (a
        mutant's): cut at the deadline, the planned result is put back, not left incomplete."""
        main = importlib.import_module('sched_tinify.__main__')
        cell, steps = 'x86_64-smp', [(s, s[:2] * 20) for s in STEPS]
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        work = run.Work('pkg', tmp.name, os.path.join(tmp.name, 'results'), kernel=KERNEL)

        def write(s, complete):
            config.write(os.path.join(work.out(s, cell), 'result.json'),
                         json.dumps({'key': 'k', 'complete': complete}))

        def run_steps(_w, _k, _t, _s, todo, _sched_only):
            for s in todo.get(cell, []):
                write(s, True)

        def repeat(*_):
            write(STEPS[-1], False)
            raise run.Stopped(run.DEADLINE)
        plans = []
        args = mock.Mock(no_checks=True, no_matrix=False, repeat=5, budget=60, start=0,
                         mutants='/none')
        with mock.patch.object(budget, 'count_mutants', return_value=({}, {})), \
                mock.patch.object(budget, 'option_steps', return_value={}), \
                mock.patch.object(budget, 'items', return_value=[
                    budget.Item('cells', {cell: [STEPS[0], STEPS[-1]]}),
                    budget.Item('repeats', repeat=5)]), \
                mock.patch.object(budget, 'measured', return_value={}), \
                mock.patch.object(budget, 'Rebuilt'), \
                mock.patch.object(budget, 'Costs', return_value=mock.Mock(return_value=1)), \
                mock.patch.object(main, 'run_steps', run_steps), \
                mock.patch.object(run, 'repeat', repeat), \
                mock.patch.object(main, 'report', lambda *a, **k: plans.append(a[5]) or 0), \
                mock.patch('time.time', return_value=0), mock.patch('sys.stdout'):
            self.assertEqual(cmd_test(main, args, work, ALL, steps, None), 0)
        self.assertEqual(plans, [{cell: [STEPS[0], STEPS[-1]]}])
        self.assertEqual(run.load(work, STEPS[-1], cell), {'key': 'k', 'complete': True})


class FreshTest(unittest.TestCase):
    def test_a_debug_cell_needs_its_planted_bugs_fresh(self):
        """The test command's kept(): a debug cell's last step is built again, with the planted
        bugs, unless that boot is fresh too; its other steps and a cell's need their own only."""
        main = importlib.import_module('sched_tinify.__main__')
        steps = [(s, s[:2] * 20) for s in STEPS]
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        work = run.Work('pkg', tmp.name, os.path.join(tmp.name, 'results'), kernel=KERNEL)
        args = mock.Mock(no_checks=True, no_matrix=False, repeat=0, budget=60, start=0,
                         mutants='/none')
        with mock.patch.object(budget, 'count_mutants', return_value=({}, {})), \
                mock.patch.object(budget, 'option_steps', return_value={}), \
                mock.patch.object(budget, 'items', return_value=[]), \
                mock.patch.object(budget, 'measured', return_value={}), \
                mock.patch.object(budget, 'Rebuilt'), \
                mock.patch.object(budget, 'Costs') as costs, \
                mock.patch.object(main, 'report', return_value=0), mock.patch('sys.stdout'):
            cmd_test(main, args, work, ALL, steps, None)
        kept = costs.call_args[0][5]
        dbg, last = 'arm-up-sanitize', STEPS[-1]
        for fresh, name, step, want in (
                ({(dbg, last, False)}, dbg, last, False),  # no planted-bugs boot
                ({(dbg, last, False), (dbg, last, True)}, dbg, last, True),
                ({(dbg, STEPS[1], False)}, dbg, STEPS[1], True),
                ({(dbg, last, True)}, dbg, last, False),  # its own result is not
                ({('arm-up', last, False)}, 'arm-up', last, True)):
            def is_kept(w, t, s, _sha, fresh=fresh, **how):
                return (t.name, s, w.results.endswith(os.path.join('selfcheck', t.name)) and
                        how.get('overlay') is not None) in fresh
            with self.subTest(name=name, step=step, fresh=fresh), \
                    mock.patch.object(run, 'kept', is_kept):
                self.assertEqual(kept(name, step, False), want)


@faketree.needs_tree
class LoopTest(unittest.TestCase):
    """python3 -m sched_tinify test on a fake package: nothing is always
    taken, and what fits runs."""

    def setUp(self):
        faketree.require_tools(faketree.TOOLS + ('ar', 'size'))
        self.pkg = Package(kunit_py=FAKE)
        self.addCleanup(self.pkg.cleanup)
        self.assertEqual(self.pkg.prepare().returncode, 0)

    def run_test(self, *args, mutants='', floor=KILLED, env=None):
        """The loop on the fake package, with a mutant in suite/ (@mutants) and the floor's list
        naming one in killer/ (@floor; none: an empty list)."""
        folder = os.path.join(self.pkg.root, 'mutants')
        shutil.rmtree(folder, ignore_errors=True)
        for suite, text in (('suite', mutants), ('killer', floor)):
            if text:
                config.write(os.path.join(folder, suite, '01-m.sed'), text)
        config.write(os.path.join(folder, 'floor'), os.path.join(folder, 'killer', '01-m.sed')
                     if floor else '# none\n')
        args += ('--mutants', folder)
        return subprocess.run([sys.executable, '-m', 'sched_tinify', 'test', '--no-checks', *args],
                              cwd=faketree.REPO, env=self.pkg.env(**{'FAKE_EXEC': 'pass', **(env or {})}),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=300, check=False)

    def report(self):
        with open(os.path.join(self.pkg.results, faketree.PKG, 'report.md'), encoding='utf-8') as f:
            return f.read()

    def test_the_floor_always_runs(self):
        """4 minutes, 3 of them kept for the report: nothing fits a cold machine twice as slow,
        but the floor runs all the same (its cell at the baseline, here the last step too, and
        its mutant), and what is left is counted in target steps and mutant runs."""
        proc = self.run_test('--targets', 'x86_64-smp', '--budget', '4', mutants=KILLED)
        out = proc.stdout + proc.stderr
        self.assertEqual(proc.returncode, 0, out)
        self.assertRegex(out, r'== linux-source-6.1: the floor: x86_64-smp at the baseline and '
                              r'the last step \(estimated at \d+ s, at \d+ s, \d+ s to the '
                              r'deadline\)')
        self.assertIn('killer/01-m x86_64-smp 00: killed', out)
        self.assertIn('- 5 boots per variant of every cell at the last step: estimated at', out)
        self.assertIn('- every mutant of kunit/mutants in the cells (2 run(s)): estimated at', out)
        self.assertRegex(out, r'verdict: GREEN: 1 target step\(s\), the floor judged, 0 '
                              r'problem\(s\), 0 difference\(s\), 0 target step\(s\) and 1 '
                              r'mutant run\(s\) left\n')
        self.assertIn('- the floor: x86_64-smp at the baseline and the last step: judged',
                      self.report())

    def test_a_floor_not_judged_is_a_harness_failure(self):
        """Exit 2, red: a floor with no mutant that runs in its cell; one the deadline cuts
        (3 minutes: the deadline at once, and a boot that hangs). A kernel whose floor is no
        target asked for takes the first cell."""
        proc = self.run_test('--targets', 'x86_64-smp', '--budget', '60',
                             floor='# cells: arm-up\n' + KILLED)
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertIn('verdict: RED: 1 target step(s), the repeated boots judged, 1 problem(s)',
                      proc.stdout)
        self.assertIn('- the floor: not judged: the floor: its mutants (none of ', self.report())
        proc = self.run_test('--targets', 'x86_64-smp', '--budget', '3', env={'FAKE_EXEC': ''})
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        # (The cell's results of the first run are kept: the mutant's boot is cut.)
        self.assertIn('- the floor: not judged: the floor: the 1 mutant run(s) of its list in '
                      'x86_64-smp at the last step', self.report())
        self.assertIn('stopped at the deadline', self.report())

    def test_what_fits_runs(self):
        # --peer too: the peer check is the main job's, neither run nor judged here.
        proc = self.run_test('--targets', 'x86_64-smp', '--budget', '60', '--peer')
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertNotIn('peer', proc.stdout)
        self.assertIn('== linux-source-6.1: the floor: x86_64-smp at the baseline and the last '
                      'step', proc.stdout)
        self.assertIn('verdict: GREEN: 1 target step(s), the repeated boots, the floor judged',
                      proc.stdout)

    def test_fresh_results_cost_seconds(self):
        """A second run estimates what the first left fresh at what judging it costs."""
        sed = '# file: kernel/sched/core.c\n# step: 00\ns/the report/a report/\n'
        for first in (True, False):
            proc = self.run_test('--targets', 'x86_64-smp', '--budget', '60', mutants=sed)
            out = proc.stdout + proc.stderr
            # The fake kunit.py passes whatever the mutant does: it survives.
            self.assertIn('suite/01-m x86_64-smp 00: survived', out)
            self.assertEqual(proc.returncode, 1, out)
            cell, mutant = (int(re.search(rf'== {x}.* \(estimated at (\d+) s', out)[1]) for x in
                            ('linux-source-6.1: the floor: x86_64-smp at the baseline',
                             'linux-source-6.1: every mutant'))
            # First a cold build of the baseline, then judging it twice (00 is the last step).
            self.assertEqual((cell > 2 * budget.STEP, mutant), (True, budget.MUTANT) if first
                             else (False, 0), out)
            self.assertEqual(cell, cell if first else 2 * budget.KEPT, out)

    def test_a_failed_item_makes_the_report_red(self):
        """An item that fails outside the grid (here a mutant the harness
        cannot place: exit 2) is in the report's verdict too."""
        proc = self.run_test('--targets', 'x86_64-smp', '--budget', '60',
                             mutants='# file: kernel/sched/core.c\n# step: 99\ns/a/b/\n')
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertIn('verdict: RED', proc.stdout)
        with open(os.path.join(self.pkg.results, faketree.PKG, 'report.md'), encoding='utf-8') as f:
            self.assertRegex(f.read(), r'## Items that failed\n+- every mutant of kunit/mutants in '
                                       r'the cells \(2 run\(s\)\) \(harness failure: .*its steps')

        # A mutant run that ends in a harness failure (its pattern changes nothing): exit 2 too.
        proc = self.run_test('--targets', 'x86_64-smp', '--budget', '60',
                             mutants='# file: Makefile\n# step: 00\ns/no such text/x/\n')
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        with open(os.path.join(self.pkg.results, faketree.PKG, 'report.md'), encoding='utf-8') as f:
            self.assertRegex(f.read(), r'## Items that failed\n+- every mutant .*: mutant '
                                       r'suite/01-m in x86_64-smp at 00: invalid \(harness '
                                       r'failure: .*nothing')


if __name__ == '__main__':
    unittest.main()
