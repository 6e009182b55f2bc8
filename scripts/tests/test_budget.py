# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/budget.py: the test command's deadline loop."""

import contextlib
import io
import json
import os
import subprocess
import tempfile
import unittest

import budget

STEPS = ['00-baseline', '01-a', '02-b', '03-c']
DEFINED = {
    'cells': [{'name': 'x86_64-smp', 'arch': 'x86_64', 'smp': True},
              {'name': 'x86_64-up', 'arch': 'x86_64', 'smp': False},
              {'name': 'arm-smp', 'arch': 'arm', 'smp': True},
              {'name': 'arm-up', 'arch': 'arm', 'smp': False}],
    'builds': [{'name': 'lean-up', 'arch': 'x86_64'}],
    'tiny': [{'name': 'arm-nosys', 'arch': 'arm', 'needs': 'X'},
             {'name': 'x86_64-nort', 'arch': 'x86_64', 'needs': 'Y'},
             {'name': 'x86_64-tiny', 'arch': 'x86_64', 'needs': 'X'}],
    'debug': [{'name': 'arm-up-sanitize', 'cell': 'arm-up'}],
}
ARCH = {e['name']: e['arch'] for k in ('cells', 'builds', 'tiny') for e in DEFINED[k]}
ARCH['arm-up-sanitize'] = 'arm'
TINY_STEPS = {'arm-nosys': ['02-b', '03-c'], 'x86_64-nort': ['03-c'],
              'x86_64-tiny': ['02-b', '03-c']}
MUTANTS = {'subset': 10, 'all': 40, 'arm-nosys': 5, 'x86_64-nort': 12, 'x86_64-tiny': 0}
C = budget.CELL_STEP


def commit_file(tree, path, text):
    """Write @text to @path in the git tree @tree and commit it: the commit."""
    with open(os.path.join(tree, path), 'w', encoding='utf-8') as f:
        f.write(text)
    subprocess.run(['git', '-C', tree, 'add', '-A'], check=True)
    subprocess.run(['git', '-C', tree, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit',
                    '-qm', path], check=True)
    return subprocess.run(['git', '-C', tree, 'rev-parse', 'HEAD'], check=True,
                          capture_output=True, text=True).stdout.strip()


def header_step(name, a, b):
    """03-c edits a header every object includes; the others one file."""
    return 1.0 if a is None or '03-c' in (a, b) else 0.0


def costs(full=None, debug=None):
    return budget.Costs(STEPS, ARCH, full or {}, header_step, boots=12, mutants=MUTANTS,
                        debug=debug if debug is not None else {'arm-up-sanitize': ''})


def found(repeat=5):
    return budget.items(STEPS, DEFINED, TINY_STEPS, repeat, MUTANTS)


def loop(deadline, full=None, actual=None):
    """Run the deadline loop as test.sh does: each item takes @actual
    seconds (default: its estimate). The plan, and the time at the end."""
    plan, now = budget.empty_plan(), 0
    while True:
        line = budget.next_item(plan, now, deadline, costs(full), found())
        if not line:
            return plan, now
        now += actual if actual is not None else plan['taken'][-1][1]


class CostTest(unittest.TestCase):

    def test_unmeasured_folders_are_cold_on_a_slow_machine(self):
        c = costs()
        self.assertEqual(c.speed, budget.SLOW)
        self.assertEqual(c.full('x86_64-up'), 2 * budget.COLD['x86_64'])
        self.assertEqual(c.full('arm-nosys'), 2 * budget.COLD['arm'])
        self.assertEqual(c.full('arm-up-sanitize'),
                         round(2 * budget.COLD['arm'] * budget.DEBUG_FACTOR))

    def test_a_measured_build_sets_the_speed(self):
        c = costs(full={'arm-up': budget.COLD['arm'] // 2})
        self.assertEqual(c.speed, 0.5)
        self.assertEqual(c.full('arm-up'), budget.COLD['arm'] // 2)
        self.assertEqual(c.full('x86_64-smp'), budget.COLD['x86_64'] // 2)
        # The slowest ratio measured counts.
        c = costs(full={'arm-up': budget.COLD['arm'] // 2, 'x86_64-smp': budget.COLD['x86_64']})
        self.assertEqual(c.full('x86_64-up'), budget.COLD['x86_64'])

    def test_steps_cost_what_they_rebuild(self):
        c = costs(full={'x86_64-up': 300})
        # From an empty folder: a full build; 01, 02 rebuild nothing, 03 all.
        self.assertEqual(c.run_cost('x86_64-up', STEPS), 4 * C + 600)
        self.assertEqual(c.run_cost('x86_64-up', ['00-baseline', '02-b']), 2 * C + 300)
        self.assertEqual(c.run_cost('x86_64-up', ['03-c'], at='02-b'), C + 300)
        self.assertEqual(c.run_cost('x86_64-up', ['02-b'], at='01-a'), C)

    def test_plan_costs(self):
        c = costs(full={'arm-up': 200})
        plan = budget.empty_plan()
        self.assertEqual(c(plan), 0)
        plan['repeat'] = 5
        self.assertEqual(c(plan), 5 * 12 * budget.REPEAT_BOOT)
        plan = dict(budget.empty_plan(), mutants=['subset', 'x86_64-nort'])
        self.assertEqual(c(plan), 2 * budget.MUTANTS_SETUP + 22 * budget.MUTANT)
        plan = dict(budget.empty_plan(), sched_only={'lean-up': ['00-baseline', '03-c']})
        self.assertEqual(c(plan), 2 * budget.SCHED_ONLY)
        plan = dict(budget.empty_plan(), upstream=True)
        self.assertEqual(c(plan), C + 200)


class ItemsTest(unittest.TestCase):

    def test_order(self):
        names = [f[0] for f in found()]
        self.assertEqual(names[:6], [
            'arm-up at the baseline and the last step',
            'x86_64-smp at the baseline and the last step',
            'the tiny cell arm-nosys at 03', 'the tiny cell x86_64-nort at 03',
            'x86_64-up at the baseline and the last step',
            'arm-smp at the baseline and the last step'])
        self.assertEqual(names[6], 'the tiny cell x86_64-tiny at 03')
        self.assertLess(names.index('5 boots per variant of every cell at the last step '
                                    '(flakes)'), names.index('every step in arm-up and '
                                                             'x86_64-smp'))
        self.assertLess(names.index('the 10 mutants of kunit/mutants/ci-subset'),
                        names.index('the debug cells (arm-up-sanitize) at the last step'))
        self.assertIn('the tiny cell arm-nosys at 02', names)
        self.assertNotIn('the tiny cell x86_64-nort at 02', names)
        # A tiny cell with no mutant of its own has no run.
        self.assertEqual(names[-2:], ['the 5 mutants of the tiny cell arm-nosys',
                                      'the 12 mutants of the tiny cell x86_64-nort'])
        lines = dict((f[0], f[1]) for f in found())
        self.assertEqual(lines['arm-up at the baseline and the last step'],
                         'cells arm-up 00-baseline,03-c')
        self.assertEqual(lines['the tiny cell arm-nosys at 02'], 'tiny arm-nosys 02-b')
        self.assertEqual(lines['the debug cells (arm-up-sanitize) at the last step'],
                         'debug 03-c')

    def test_no_repeats_asked_no_item(self):
        self.assertFalse(any('boots' in f[0] for f in found(repeat=0)))


class LoopTest(unittest.TestCase):

    def test_a_fast_machine_runs_everything(self):
        plan, _ = loop(10 ** 6, full={c: 10 for c in ARCH})
        self.assertEqual(plan['left'], [])
        self.assertEqual(len(plan['taken']), len(found()))
        self.assertEqual(plan['cells']['x86_64-up'], STEPS)
        self.assertEqual(plan['tiny']['arm-nosys'], ['02-b', '03-c'])
        self.assertEqual(plan['mutants'], ['subset', 'all', 'arm-nosys', 'x86_64-nort'])
        self.assertEqual((plan['repeat'], plan['debug'], plan['upstream']), (5, ['03-c'], True))

    def test_nothing_is_always_taken(self):
        # Less than a cold pair: nothing runs, everything is left, in time.
        plan, now = loop(80)
        self.assertEqual(plan['taken'], [])
        self.assertEqual(now, 0)
        self.assertEqual(plan['left'][0], 'arm-up at the baseline and the last step')
        self.assertIn('estimated at', plan['why']['arm-up at the baseline and the last step'])
        self.assertEqual(len(plan['left']), len(found()))
        # The build-only configurations' kernel/sched/ fits where no cell
        # does; the mutants, which build from what the cells leave in
        # ccache, are left without them.
        plan, now = loop(600)
        self.assertEqual([t[0] for t in plan['taken']],
                         ['the build-only configurations at the baseline and the last step, '
                          'kernel/sched/ only'])
        self.assertEqual(now, 2 * budget.SCHED_ONLY)
        self.assertIn('arm-up at 03-c, which this run left',
                      plan['why']['the 10 mutants of kunit/mutants/ci-subset'])

    def test_the_loop_ends_by_the_deadline(self):
        for deadline in (900, 2000, 5000, 9000):
            plan, now = loop(deadline)
            self.assertLessEqual(now, deadline)
            self.assertTrue(plan['left'])

    def test_an_item_that_needs_a_left_one_is_left(self):
        # arm-up's pair fits, x86_64-smp's does not: no repeats, no debug
        # cells without their plain cell... the debug cell is arm-up's.
        plan, _ = loop(2 * C + 2 * 2 * budget.COLD['arm'] + 100)
        self.assertEqual([t[0] for t in plan['taken']][:1],
                         ['arm-up at the baseline and the last step'])
        name = '5 boots per variant of every cell at the last step (flakes)'
        self.assertIn(name, plan['left'])
        self.assertIn('x86_64-smp at 03-c', plan['why'][name])

    def test_seconds_of_an_item_are_recorded(self):
        plan, _ = loop(10 ** 6, full={c: 10 for c in ARCH}, actual=7)
        self.assertTrue(all(t[2] == 7 for t in plan['taken'][:-1]))

    def test_stopped(self):
        plan = budget.empty_plan()
        budget.next_item(plan, 0, 10 ** 6, costs(), found())
        self.assertEqual(plan['cells'], {'arm-up': ['00-baseline', '03-c']})
        budget.stopped(plan, 99)
        self.assertEqual(plan['cells'], {})
        self.assertEqual(plan['taken'], [])
        self.assertEqual(plan['left'], ['arm-up at the baseline and the last step'])
        self.assertIn('stopped at the deadline', plan['why'][plan['left'][0]])
        # Taken again? No: it is decided.
        self.assertTrue(budget.next_item(plan, 0, 10 ** 6, costs(), found()).startswith(
            'cells x86_64-smp '))
        with self.assertRaises(budget.BudgetError):
            budget.stopped(budget.empty_plan(), 1)


class CountTest(unittest.TestCase):

    def test_count_mutants(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 's'))
            for name, head in (('a', ''), ('b', '# tiny: X\n'),
                               ('c', '# tiny: Y\n# tiny cells: x86_64-nort\n'),
                               ('d', '# tiny: Y\n# tiny cells: arm-nort\n')):
                with open(os.path.join(d, 's', name + '.sed'), 'w', encoding='utf-8') as f:
                    f.write(f'# step: 00\n{head}s/a/b/\n')
            with open(os.path.join(d, 'ci-subset'), 'w', encoding='utf-8') as f:
                f.write('# the subset\ns/a.sed\n\n')
            self.assertEqual(budget.count_mutants(d, DEFINED['tiny']),
                             {'subset': 1, 'all': 1, 'arm-nosys': 1, 'x86_64-nort': 1,
                              'x86_64-tiny': 1})


class RebuiltTest(unittest.TestCase):
    """Which objects a change rebuilds, from kbuild's command files."""

    def test_share_of_objects(self):
        with tempfile.TemporaryDirectory() as d:
            tree = os.path.join(d, 'linux')
            os.makedirs(os.path.join(tree, 'include'))
            os.makedirs(os.path.join(tree, 'kernel'))

            def commit(path, text):
                return commit_file(tree, path, text)

            subprocess.run(['git', 'init', '-q', tree], check=True)
            s0 = commit('include/a.h', '1')
            s1 = commit('kernel/x.c', '1')
            s2 = commit('include/a.h', '2')
            out = os.path.join(d, 'build')
            os.makedirs(os.path.join(out, 'kernel'))
            # As ccache's base_dir leaves them: relative to the build folder.
            for name, deps in (('x', 'kernel/x.c include/a.h'), ('y', 'kernel/y.c'),
                               ('z', 'kernel/z.c include/a.h'), ('w', 'kernel/w.c')):
                with open(os.path.join(out, 'kernel', f'.{name}.o.cmd'), 'w',
                          encoding='utf-8') as f:
                    f.write(''.join(f'  ../linux/{p} \\\n' for p in deps.split()))
            steps = ['00', '01', '02']
            r = budget.Rebuilt(tree, dict(zip(steps, (s0, s1, s2))), steps, {'c': out})
            self.assertEqual(r('c', '00', '01'), 0.25)
            self.assertEqual(r('c', '01', '02'), 0.5)
            self.assertEqual(r('c', '02', '00'), 0.5)
            self.assertEqual(r('no-folder', '00', '01'), 1.0)




class MainTest(unittest.TestCase):

    def test_next_on_a_tree(self):
        """budget.py next on a git tree whose third step adds the options."""
        with tempfile.TemporaryDirectory() as d:
            tree = os.path.join(d, 'linux')
            os.makedirs(os.path.join(tree, 'init'))
            os.makedirs(os.path.join(tree, 'kernel', 'sched'))
            subprocess.run(['git', 'init', '-q', tree], check=True)

            def commit(path, text):
                return commit_file(tree, path, text)

            # The scaffolding's stand-ins do not count.
            shas = [commit('kernel/sched/Kconfig.kunit',
                           'config SCHED_CLASS_RT\nconfig SCHED_CLASS_DL\n'),
                    commit('init/Kconfig', 'config SCHED_CLASS_DL\n'),
                    commit('init/Kconfig', 'config SCHED_CLASS_DL\nconfig SCHED_CLASS_RT\n')]
            steps_file = os.path.join(d, 'steps')
            with open(steps_file, 'w', encoding='utf-8') as f:
                f.write(''.join(f'{s} {h}\n' for s, h in zip(['00-base', '01-dl', '02-rt'],
                                                              shas)))
            path = os.path.join(d, 'plan.json')
            argv = ['next', path, '--elapsed', '0', '--deadline', '100000', '--steps-file',
                    steps_file, '--tree', tree, '--results', os.path.join(d, 'results'),
                    '--build-root', os.path.join(d, 'build'), '--repeat', '5']
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                budget.main(argv)
            self.assertEqual(out.getvalue().splitlines()[0], 'cells arm-up 00-base,02-rt')
            # Estimated cold, on a machine twice as slow: two full builds.
            self.assertIn(f'(estimated at {2 * C + 4 * budget.COLD["arm"]} s',
                          out.getvalue().splitlines()[1])
            with open(path, encoding='utf-8') as f:
                plan = json.load(f)
            self.assertEqual(plan['tiny_steps']['arm-tiny'], ['01-dl', '02-rt'])
            self.assertEqual(plan['tiny_steps']['arm-nosys'], [])
            self.assertEqual(plan['tiny_steps']['x86_64-nort'], ['02-rt'])
            # A measured folder: its longest build is its full build.
            for step, seconds in (('00-base', 100), ('02-rt', 300)):
                os.makedirs(os.path.join(d, 'results', step, 'x86_64-smp'))
                with open(os.path.join(d, 'results', step, 'x86_64-smp', 'meta'), 'w',
                          encoding='utf-8') as f:
                    f.write(f'sha=x\nbuild_seconds={seconds}\n')
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                budget.main(argv)
            self.assertEqual(out.getvalue().splitlines(),
                             ['cells x86_64-smp 00-base,02-rt', 'x86_64-smp at the baseline '
                              f'and the last step (estimated at {2 * C + 600} s, to end by '
                              '100000 s)'])
            # The next call takes the next item; a deadline passed leaves it.
            argv[3] = '99999'
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                budget.main(argv)
            self.assertEqual(out.getvalue(), '')
            with open(path, encoding='utf-8') as f:
                plan = json.load(f)
            self.assertEqual(len(plan['taken']), 2)
            self.assertEqual(plan['taken'][1][2], 99999)
            self.assertIn('the tiny cell arm-tiny at 02', plan['left'])

    def test_get_and_stopped(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'plan.json')
            plan = budget.empty_plan()
            budget.next_item(plan, 0, 10 ** 6, costs(), found())
            budget.save(path, plan)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                budget.main(['get', path, 'cells'])
            self.assertEqual(out.getvalue(), 'arm-up\n')
            budget.main(['stopped', path, '--elapsed', '5'])
            with open(path, encoding='utf-8') as f:
                self.assertEqual(json.load(f)['left'],
                                 ['arm-up at the baseline and the last step'])
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                budget.main(['left', path])
            self.assertEqual(out.getvalue(), '- arm-up at the baseline and the last step: '
                             'stopped at the deadline, at 5 s\n')
            with self.assertRaises(budget.BudgetError):
                budget.main(['get', os.path.join(d, 'none.json'), 'left'])
            with self.assertRaises(budget.BudgetError):
                budget.main(['plan'])


if __name__ == '__main__':
    unittest.main()
