# SPDX-License-Identifier: GPL-2.0
"""Tests of sched_tinify/run.py and the pipeline (python3 -m sched_tinify)
on a fake kernel package (tests/faketree.py): a whole run, one Ctrl-C that
stops it and marks the result incomplete, one run at a time, the
freshness rule, the tree checks."""

import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

from tests import faketree
from tests.faketree import FAKE_KUNIT_PY, alive, as_from_a_terminal

sys.path.insert(0, faketree.REPO)
from sched_tinify import config, peer, run  # noqa: E402 pylint: disable=wrong-import-position

# kunit.py exec that boots "4 CPUs" and passes one case, when asked to
# (FAKE_EXEC=pass) and the tree is not a mutant's (NAME = Mutant in its
# Makefile), fails it in a tree named Killed; else the fake of
# test_run_control, whose QEMU sleeps.
PASSING_EXEC = r'''
if cmd == 'exec' and os.environ.get('FAKE_EXEC') == 'pass' and \
        'NAME = Mutant' not in open('Makefile').read():
    boots = os.path.join(bdir, 'boots')
    n = int(open(boots).read()) + 1 if os.path.exists(boots) else 1
    open(boots, 'w').write(str(n))
    # FAKE_FLAKY: every third boot skips the case.
    ok = 'ok 1 c # SKIP flake' if os.environ.get('FAKE_FLAKY') and n % 3 == 0 else 'ok 1 c'
    # A tree named Killed (a mutant's) fails the case.
    ok = 'not ok 1 c' if 'NAME = Killed' in open('Makefile').read() else ok
    with open(os.path.join(bdir, 'test.log'), 'w') as log:
        log.write('smp: Brought up 1 node, 4 CPUs\nKTAP version 1\n1..1\n'
                  '    KTAP version 1\n    # Subtest: s\n    1..1\n    ' + ok + '\nok 1 s\n')
    out = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--json=')][0]
    with open(out, 'w') as f:
        f.write('{"name": "", "sub_groups": [{"name": "s", "test_cases": '
                '[{"name": "c", "status": "%s"}]}], "test_cases": []}' % (
                    'FAIL' if ok.startswith('not') else ok.split()[-1][:4]
                    .replace('c', 'PASS').replace('flak', 'SKIP')))
    sys.exit(0)
'''
FAKE = FAKE_KUNIT_PY.replace("qemu = subprocess.Popen", PASSING_EXEC + "qemu = subprocess.Popen")
CELL = 'x86_64-smp'


TREE = faketree.TREE


def qemu_pid(path, deadline):
    """The pid the fake QEMU wrote, once the file has it, and half a second more for the
    run to wait on it."""
    while time.time() < deadline:
        try:
            with open(path, encoding='utf-8') as f:
                pid = int(f.read())
            time.sleep(0.5)
            return pid
        except (OSError, ValueError):
            time.sleep(0.1)
    raise AssertionError(f'no pid in {path}')


class Package(faketree.FakePackage):
    """The fake package with the kernel's own KTAP and Kconfig parsers, and a kernel/sched/core.c."""

    def files(self):
        files = super().files()
        for name in ('kunit_parser.py', 'kunit_printer.py', 'kunit_config.py'):
            with open(os.path.join(TREE, 'tools', 'testing', 'kunit', name),
                      encoding='utf-8') as f:
                files[f'tools/testing/kunit/{name}'] = (f.read(), 0o644)
        files['kernel/sched/core.c'] = ('/* the report counts its lines */\n', 0o644)
        return files


@faketree.needs_tree
class PipelineTest(unittest.TestCase):
    def setUp(self):
        faketree.require_tools(faketree.TOOLS + ('ar', 'size'))
        self.pkg = Package(kunit_py=FAKE)
        self.addCleanup(self.pkg.cleanup)
        proc = self.pkg.prepare()
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def start(self, *args, **env):
        return subprocess.Popen([sys.executable, '-m', 'sched_tinify', *args],
                                cwd=faketree.REPO, env=self.pkg.env(**env),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=as_from_a_terminal)

    def result(self):
        path = os.path.join(self.pkg.results, faketree.PKG, config.BASELINE, CELL,
                            'result.json')
        with open(path, encoding='utf-8') as f:
            return json.load(f)

    def upstream_form(self):
        """Give the package upstream-form test patches, and their commit."""
        os.makedirs(os.path.join(self.pkg.series, 'kunit'))
        with open(os.path.join(self.pkg.series, 'kunit', '0001-up.patch'), 'w',
                  encoding='utf-8') as f:
            f.write('From: Dev <dev@example.org>\nDate: Thu, 3 Dec 2026 06:18:33 +0000\n'
                    'Subject: [PATCH] Up\n\nUp.\n\nSigned-off-by: Dev <dev@example.org>\n---\n'
                    'diff --git a/Makefile b/Makefile\n--- a/Makefile\n+++ b/Makefile\n'
                    '@@ -6 +6 @@\n-NAME = Fake\n+NAME = Up\n')
        self.assertEqual(self.pkg.prepare().returncode, 0)

    def test_a_whole_run_then_reuse(self):
        proc = self.start('run', '--targets', CELL, FAKE_EXEC='pass')
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 0, out + err)
        self.assertIn(f'[1/1] {config.BASELINE} {CELL}: build ', out)
        self.assertIn('1 passed, 0 skipped, 0 failed, baseline', out)
        self.assertIn('verdict: GREEN: 1 target step(s) judged', out)
        # The verdict and the count end the output, in that order (issue 25's bug 8).
        self.assertEqual([x.split(':')[0] for x in out.splitlines()[-2:]], ['verdict', 'kunit'])
        res = self.result()
        self.assertEqual((res['complete'], res['booted_cpus'], res['key']),
                         (True, 4, config.key(res['inputs'])))
        proc = self.start('run', '--targets', CELL, '--reuse', FAKE_EXEC='pass')
        out, err = proc.communicate(timeout=120)
        self.assertIn('fresh result kept', out)
        # A kept result is judged again: a kernel splat in its log makes it red (exit codes 0).
        with open(os.path.join(self.pkg.results, faketree.PKG, config.BASELINE, CELL,
                               'test.log'), 'a', encoding='utf-8') as f:
            f.write('[    1.0] BUG: kernel NULL pointer dereference, address: 0\n')
        proc = self.start('run', '--targets', CELL, '--reuse', FAKE_EXEC='pass')
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 1, out + err)
        self.assertIn('fresh result kept', out)
        self.assertIn('kernel splat: 1 line(s)', out)
        # Another time-out is another input: the result is stale, and run again.
        proc = self.start('run', '--targets', CELL, '--reuse', FAKE_EXEC='pass',
                          KUNIT_TIMEOUT='99')
        out, err = proc.communicate(timeout=120)
        self.assertNotIn('fresh result kept', out)
        self.assertEqual(proc.returncode, 0, out + err)

    def test_judge_judges_the_series_as_it_is_now(self):
        """A patch added after the run is a step the judge calls not run: it does not judge
        the steps of the series the run had."""
        proc = self.start('run', '--targets', CELL, FAKE_EXEC='pass')
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 0, out + err)
        self.pkg.add_patch('x', 'diff --git a/Makefile b/Makefile\n--- a/Makefile\n'
                           '+++ b/Makefile\n@@ -6 +6 @@\n-NAME = Fake\n+NAME = X\n')
        proc = self.start('judge', '--targets', CELL)
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 1, out + err)
        self.assertIn('verdict: RED: 1 target step(s) judged, 2 problem(s)', out)
        with open(os.path.join(self.pkg.results, faketree.PKG, 'report.md'),
                  encoding='utf-8') as f:
            self.assertIn(f'01-x {CELL}: not run', f.read())

    def test_a_target_whose_option_the_series_lacks_is_red(self):
        """A tiny cell whose "needs" no step defines (the fake tree has no Kconfig) is n/a
        at every step: that is a problem, not a GREEN with nothing judged."""
        proc = self.start('judge', '--targets', 'arm-tiny')
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 1, out + err)
        with open(os.path.join(self.pkg.results, faketree.PKG, 'report.md'),
                  encoding='utf-8') as f:
            self.assertIn('- arm-tiny needs CONFIG_SCHED_CLASS_DL, which the last step does not '
                          'define', f.read())

    def test_the_main_job_judges_every_mutant(self):
        """The main job (no target, kind, step or repeat named) runs every
        mutant too; judged without running them, they are not killed."""
        folder = os.path.join(self.pkg.root, 'mutants')
        os.makedirs(os.path.join(folder, 'suite'))
        with open(os.path.join(folder, 'suite', '01-m.sed'), 'w', encoding='utf-8') as f:
            f.write('# file: kernel/sched/core.c\n# step: 00\ns/a/b/\n')
        self.upstream_form()  # the main job judges the upstream-form tests too
        proc = self.start('judge', '--mutants', folder)
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 1, out + err)
        self.assertIn(f'suite/01-m {CELL} 00: invalid', out)
        self.assertNotIn(': started', out)
        with open(os.path.join(self.pkg.results, faketree.PKG, 'report.md'),
                  encoding='utf-8') as f:
            report = f.read()
        self.assertIn('Mutants (every one at its first step and its last', report)
        self.assertRegex(report, rf'mutant .*suite/01-m in {CELL} at 00: invalid .*, not killed')
        # Only the mutants command takes paths.
        proc = self.start('run', '--targets', CELL, folder)
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 2, out + err)
        self.assertIn('only mutants takes paths', err)

    def test_the_peer_check_and_the_upstream_tests_never_pass_unrun(self):
        """Not run, they are red; a result the harness failed makes the run exit 2."""
        self.upstream_form()
        proc = self.start('run', '--targets', CELL, FAKE_EXEC='pass')
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 0, out + err)
        self.assertRegex(out, r'verdict: GREEN: \d+ target step\(s\) judged')
        peer_dir = os.path.join(self.pkg.results, faketree.PKG, 'peer', config.BASELINE)
        for res, rc, want in ((None, 1, 'peer: not run'), (
                dict(complete=True, harness_error='no busybox'), 2,
                'peer: harness failure: no busybox')):
            if res:
                res['key'] = config.key(peer.inputs(self.result()['sha']))
                config.write(os.path.join(peer_dir, 'result.json'), json.dumps(res))
            proc = self.start('judge', '--targets', f'{CELL},upstream', '--peer')
            out, err = proc.communicate(timeout=120)
            self.assertEqual(proc.returncode, rc, out + err)
            # The verdict line names the checks it judged besides the target steps.
            self.assertRegex(out, r'verdict: RED: \d+ target step\(s\), the peer check at 1 '
                             r'step\(s\), the upstream-form tests judged, ')
            with open(os.path.join(self.pkg.results, faketree.PKG, 'report.md'),
                      encoding='utf-8') as f:
                report = f.read()
            self.assertIn(f'{config.BASELINE} {want}', report)
            self.assertIn('upstream: not run', report)

    def test_the_peer_check_is_judged_where_it_runs(self):
        """At each step --steps names, else at the baseline and the last step."""
        self.pkg.add_patch('x', 'diff --git a/Makefile b/Makefile\n--- a/Makefile\n'
                           '+++ b/Makefile\n@@ -6 +6 @@\n-NAME = Fake\n+NAME = X\n')
        self.pkg.add_patch('y', 'diff --git a/Makefile b/Makefile\n--- a/Makefile\n'
                           '+++ b/Makefile\n@@ -6 +6 @@\n-NAME = X\n+NAME = Y\n')
        every = [config.BASELINE, '01-x', '02-y']
        for steps, want in ((['--steps', '01-x'], ['01-x']), (['--steps', ','.join(every)], every),
                            ([], [config.BASELINE, '02-y'])):
            proc = self.start('judge', '--targets', CELL, '--peer', *steps)
            out, err = proc.communicate(timeout=120)
            self.assertEqual(proc.returncode, 1, out + err)
            with open(os.path.join(self.pkg.results, faketree.PKG, 'report.md'),
                      encoding='utf-8') as f:
                peer_lines = re.findall(r'^- (\S+) peer: not run$', f.read(), re.M)
            self.assertEqual(peer_lines, want, out + err)

    def test_no_earlier_report_stands_for_a_run(self):
        """A run that ends before its report removes the earlier one (and junit/); the
        static checks alone (test --no-matrix) leave it."""
        top = os.path.join(self.pkg.results, faketree.PKG)
        earlier = [os.path.join(top, n) for n in ('report.md', 'report.json', 'junit/x.xml')]
        for path in earlier:
            config.write(path, 'GREEN\n')
        proc = self.start('test', '--no-checks', '--no-matrix')
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 0, out + err)
        self.assertTrue(all(os.path.exists(p) for p in earlier))
        proc = self.start('run', '--targets', CELL, '--steps', '99-none')
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 2, out + err)
        self.assertEqual([p for p in earlier if os.path.exists(p)], [])
        # The mutants' summary, by a mutants run that fails before any mutant ran.
        summary = os.path.join(top, 'mutants', 'summary.md')
        config.write(summary, 'an earlier run: killed\n')
        os.makedirs(os.path.join(self.pkg.root, 'none'))
        proc = self.start('mutants', '--targets', CELL, os.path.join(self.pkg.root, 'none'))
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 2, out + err)
        self.assertIn('no mutant in', err)
        self.assertFalse(os.path.exists(summary))

    def test_repeat_variants_without_a_config_are_every_one(self):
        smp = config.targets(config.load(), 'x86_64-smp')[0]
        self.assertEqual([v[0] for v in run.variants(smp, '/nonexistent/.config')],
                         ['cpus4', 'cpus2', 'cpus8', 'cpus4-loaded'])

    def test_a_failed_build_leaves_no_key_for_the_repeats(self):
        """The repeats boot a build folder's kernel when its key is the
        step's: a build that did not end (or failed) may have replaced
        the kernel, so the folder holds no key after it."""
        key = os.path.join(self.pkg.work, faketree.PKG, 'build', CELL, 'sched-tinify.key')
        proc = self.start('run', '--targets', CELL, FAKE_EXEC='pass')
        proc.communicate(timeout=120)
        self.assertTrue(os.path.exists(key))
        proc = self.start('run', '--targets', CELL, FAKE_EXEC='pass', FAKE_BUILD='fail')
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 1, out + err)
        self.assertFalse(os.path.exists(key))

    def test_repeats(self):
        proc = self.start('run', '--targets', CELL, '--repeat', '2', FAKE_EXEC='pass')
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 0, out + err)
        self.assertIn(f'[repeat] {CELL} at {config.BASELINE}: GREEN: 4 run(s) in 2 variant(s)',
                      out)
        # Every third boot (the build's is the first) skips: a flake in each variant.
        proc = self.start('run', '--targets', CELL, '--repeat', '2', FAKE_EXEC='pass',
                          FAKE_FLAKY='1')
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 1, out + err)
        self.assertIn('RED: 4 run(s) in 2 variant(s), 1 flaky case(s)', out)
        with open(os.path.join(self.pkg.results, faketree.PKG, 'report.md'),
                  encoding='utf-8') as f:
            self.assertRegex(f.read(), r'flaky: changed: s\.c: (PASS|SKIP).* \(1 run\(s\)\)')

    def test_ctrl_c_stops_the_run(self):
        proc = self.start('run', '--targets', CELL)
        pid = qemu_pid(os.path.join(self.pkg.build, CELL, 'qemu.pid'), time.time() + 60)
        t0 = time.time()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        self.assertLess(time.time() - t0, 20)
        self.assertEqual(proc.returncode, 128 + signal.SIGINT, err)
        self.assertFalse(alive(pid), 'QEMU outlived the run')
        res = self.result()
        self.assertEqual((res['complete'], res.get('interrupted')), (False, 'SIGINT'))
        self.assertEqual(self.pkg.git('status', '--porcelain'), '')

    def test_ctrl_c_stops_the_mutants(self):
        """Ctrl-C while a mutant is laid on the tree: the run ends at once with 130, the tree
        is clean, the lock is free for the next run, and no earlier summary stands for it."""
        folder = os.path.join(self.pkg.root, 'mutants', 'suite')
        os.makedirs(folder)
        with open(os.path.join(folder, '01-m.sed'), 'w', encoding='utf-8') as f:
            f.write('# file: Makefile\n# step: 00\ns/NAME = Fake/NAME = Mutant/\n')
        summary = os.path.join(self.pkg.results, faketree.PKG, 'mutants', 'summary.md')
        config.write(summary, 'an earlier run: killed\n')
        proc = self.start('mutants', '--targets', CELL, folder, FAKE_EXEC='pass')
        deadline, makefile = time.time() + 60, os.path.join(self.pkg.tree, 'Makefile')

        def laid():  # read, not git status: that would race the run's own git for the index
            with open(makefile, encoding='utf-8') as f:
                return 'NAME = Mutant' in f.read()
        while not laid() and time.time() < deadline:
            time.sleep(0.1)
        self.assertTrue(laid(), 'the mutant was never laid')
        pid = qemu_pid(os.path.join(self.pkg.build, CELL, 'qemu.pid'), deadline)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 128 + signal.SIGINT, out + err)
        self.assertFalse(alive(pid), 'QEMU outlived the run')
        self.assertFalse(os.path.exists(summary), 'an earlier summary stands for this run')
        self.assertEqual(self.pkg.git('status', '--porcelain'), '')
        self.assertFalse(os.path.exists(self.pkg.tree + '.overlay'), 'its note stands')
        with open(os.path.join(self.pkg.pkg_dir, 'lock'), encoding='utf-8') as f:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        # --judge-only judges what is there (the mutant's result is incomplete) and runs nothing.
        proc = self.start('mutants', '--judge-only', '--targets', CELL, folder, FAKE_EXEC='pass')
        out, err = proc.communicate(timeout=60)
        self.assertEqual((proc.returncode, out.count('started')), (1, 0), out + err)
        self.assertIn(f'suite/01-m {CELL} 00: invalid (incomplete: interrupted by SIGINT)', out)

    def test_a_killed_run_s_overlay_is_taken_off(self):
        """The next command takes off what a run killed outright left on the tree, before
        prepare() could call it the user's work."""
        sed = os.path.join(self.pkg.root, '01-m.sed')
        config.write(sed, '# file: Makefile\n# step: 00\ns/NAME = Fake/NAME = Mutant/\n')
        run.Overlay.mutant(sed, 'Makefile').apply(self.pkg.tree)
        proc = self.start('judge', '--targets', CELL)
        out, err = proc.communicate(timeout=120)
        self.assertIn('taking off 01-m.sed, which a killed run left on the tree\n', out, err)
        self.assertEqual(self.pkg.git('status', '--porcelain'), '')

    def test_one_run_at_a_time(self):
        lock = os.path.join(self.pkg.pkg_dir, 'lock')
        with open(lock, 'w', encoding='utf-8') as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            f.write('pid 1, started then, command: someone else\n')
            f.flush()
            proc = self.start('run', '--targets', CELL)
            _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, run.LOCKED)
        self.assertIn('command: someone else', err)

    def test_harness_failures_exit_2(self):
        # A local change; a new file that .gitignore hides (Debian's hides every one).
        exclude = os.path.join(self.pkg.tree, '.git', 'info', 'exclude')
        for path, text in (('Makefile', '# a local change\n'), (exclude, '/left.c\n'),
                           ('left.c', 'int left;\n')):
            with open(os.path.join(self.pkg.tree, path), 'a', encoding='utf-8') as f:
                f.write(text)
            if path == exclude:
                continue
            proc = self.start('run', '--targets', CELL)
            out, err = proc.communicate(timeout=60)
            self.assertEqual(proc.returncode, 2, out + err)
            self.assertIn('has local changes or new files: refusing to build', out)
            run.git(self.pkg.tree, 'checkout', '-q', '--', 'Makefile')
        os.remove(os.path.join(self.pkg.tree, 'left.c'))
        proc = self.start('run', '--targets', 'nothing')
        out, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 2)
        self.assertIn('unknown target(s): nothing', err)


class PeerTest(unittest.TestCase):
    def test_the_expected_file_is_the_step_s(self):
        """At a step with SCHED_CLASS_DL, tinyconfig leaves the deadline class out: a kernel
        that kept it (the lines of rt-dl, as its .config would say) reads red."""
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        work, sha = run.Work('pkg', tmp.name, tmp.name), 'a' * 40
        lines = [x for x in config.read(os.path.join(config.REPO, 'peer', 'rt-dl.expected'))
                 .splitlines() if not x.startswith('#')]
        config.write(os.path.join(tmp.name, 'peer', '01-x', 'result.json'), json.dumps(
            {'key': config.key(peer.inputs(sha)), 'complete': True, 'qemu_rc': 0, 'peer': lines,
             'expected': 'rt-dl'}))
        with mock.patch.object(run, 'options', return_value={'SCHED_CLASS_DL'}):
            self.assertEqual(peer.judge(work, '01-x', sha)[:1], [
                "differs from peer/rt.expected: -'peer: priority range SCHED_DEADLINE: min -22 "
                "max -22' +'peer: priority range SCHED_DEADLINE: min 0 max 0'"])
        with mock.patch.object(run, 'options', return_value=set()):
            self.assertEqual(peer.judge(work, '01-x', sha), [])

    def test_every_peer_file_counts(self):
        """Editing any file of peer/ (the init, an expected file) or the code makes a peer
        result stale (issue 25's bug 5); putting it back makes it fresh again."""
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        files = [f'peer/{n}' for n in sorted(os.listdir(os.path.join(config.REPO, 'peer')))]
        files += ['sched_tinify/peer.py', 'sched_tinify/sizes.py']
        for rel in files:
            os.makedirs(os.path.dirname(os.path.join(tmp.name, rel)), exist_ok=True)
            shutil.copy(os.path.join(config.REPO, rel), os.path.join(tmp.name, rel))
        arm = config.arch('arm')  # ci/matrix.json, read from the repository
        with mock.patch.object(config, 'REPO', tmp.name), \
                mock.patch.object(config, 'arch', lambda _: arm):
            before = config.key(peer.inputs('a' * 40))
            for rel in files:
                with self.subTest(rel), open(os.path.join(tmp.name, rel), 'rb+') as f:
                    old = f.read()
                    f.write(b'\n')
                    f.flush()
                    self.assertNotEqual(config.key(peer.inputs('a' * 40)), before)
                    f.truncate(len(old))
                    f.flush()
                    self.assertEqual(config.key(peer.inputs('a' * 40)), before)


class OverlayTest(unittest.TestCase):
    """A mutant and the planted bugs are laid on a tree and taken off
    again, whatever happens; signals wait meanwhile."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.tree = os.path.join(self.tmp.name, 'linux')
        os.makedirs(os.path.join(self.tree, 'kernel', 'sched'))
        # Debian's .gitignore ignores every new file (linux-source-6.1).
        for name, text in (('kernel/sched/core.c', 'int a = 1;\n'), ('.gitignore', '/*\n'),
                           ('kernel/sched/build_policy.c', '/* policy */\n'),
                           ('kernel/sched/a b.c', 'int a = 1;\n')):
            with open(os.path.join(self.tree, name), 'w', encoding='utf-8') as f:
                f.write(text)
        for argv in (['init', '-q'], ['add', '-A', '-f'], ['-c', 'user.name=t', '-c',
                                                     'user.email=t@t', 'commit', '-qm', 'x']):
            subprocess.run(['git', '-C', self.tree, *argv], check=True)

    def test_apply_and_remove(self):
        sed = os.path.join(self.tmp.name, 'm.sed')
        with open(sed, 'w', encoding='utf-8') as f:
            f.write('s/a = 1/a = 2/\n')
        planted = os.path.join(self.tree, 'kernel', 'sched', 'debug_selfcheck.c')
        for overlay in (run.Overlay.mutant(sed, 'kernel/sched/core.c'), run.Overlay.planted(),
                        run.Overlay.planted()):
            with self.subTest(overlay.name):
                if overlay.name == 'planted bugs':  # as a killed run or an older harness left it
                    config.write(planted, config.read(os.path.join(config.REPO, 'scripts',
                                                                   'debug-selfcheck.c')))
                overlay.apply(self.tree)
                self.assertTrue(run.git(self.tree, 'status', '--porcelain').stdout.strip())
                if overlay.name == 'planted bugs':  # one copy, however often it was laid
                    self.assertEqual(config.read(planted).count('debug_selfcheck_suite = {'), 1)
                overlay.remove(self.tree)
                self.assertEqual(run.git(self.tree, 'status', '--porcelain', '--ignored=matching',
                                         '--untracked-files=all').stdout, '')
        with open(sed, 'w', encoding='utf-8') as f:
            f.write('s/nothing/here/\n')
        with self.assertRaisesRegex(run.HarnessError, 'changes nothing'):
            run.Overlay.mutant(sed, 'kernel/sched/core.c').apply(self.tree)

    def test_killed_run(self):
        """An overlay a killed run left is taken off by the next run (prepare() calls take_off()
        first), by its note: only its paths, and the note goes only once they are clean."""
        sed = os.path.join(self.tmp.name, 'm.sed')
        config.write(sed, 's/a = 1/a = 2/\n')
        work = run.Work('', self.tmp.name, os.path.join(self.tmp.name, 'results'))
        sha, note = run.git(self.tree, 'rev-parse', 'HEAD').stdout.strip(), self.tree + '.overlay'
        status = ['status', '--porcelain', '--ignored=matching', '--untracked-files=all']
        for overlay in (run.Overlay.mutant(sed, 'kernel/sched/core.c'), run.Overlay.planted(),
                        run.Overlay.mutant(sed, 'kernel/sched/a b.c')):
            with self.subTest(overlay.name):
                overlay.apply(self.tree)
                lock = os.path.join(self.tree, '.git', 'index.lock')  # a killed git's
                config.write(lock, '')
                with mock.patch('builtins.print'), self.assertRaisesRegex(
                        run.HarnessError, f'{overlay.name} is still on .*git status'):
                    run.take_off(work)
                self.assertTrue(os.path.exists(note), 'the note went, the overlay stayed')
                os.remove(lock)
                with mock.patch('builtins.print') as said:
                    run.take_off(work)
                said.assert_called_once_with(f'taking off {overlay.name}, which a killed run '
                                             'left on the tree', flush=True)
                self.assertEqual(sorted(os.listdir(self.tmp.name)), ['linux', 'm.sed'])
                self.assertEqual(run.git(self.tree, *status).stdout, '')
                run.checkout(work, sha, tests=False)
        # A note that outlived its overlay takes nothing else off, its paths read literally; a
        # change not the harness's stops the run.
        config.write(os.path.join(self.tree, 'kernel/sched/build_policy.c'), '/* mine */\n')
        config.write(os.path.join(self.tree, 'kernel/sched/mine.c'), '/* mine */\n')
        mine = ' M kernel/sched/build_policy.c\n!! kernel/sched/mine.c\n'
        for paths in (['kernel/sched/core.c'], ['kernel/sched/*.c'], [':(glob)**']):
            config.write(note, json.dumps(['m.sed', paths]))
            with mock.patch('builtins.print'):
                run.take_off(work)
            self.assertEqual(run.git(self.tree, *status).stdout, mine, paths)
        with self.assertRaisesRegex(run.HarnessError, 'has local changes'):
            run.checkout(work, sha, tests=False)
        for text in ('', 'null', '["m.sed", []]', '["m.sed", [""]]', '["m.sed", "ab"]',
                     '[null, ["kernel/sched/core.c"]]', '["m.sed", ["."]]', '["m.sed", ["kernel"]]',
                     '["m.sed", ["kernel/sched/"]]', '["m.sed", ["kernel/sched"]]',
                     f'["m.sed", ["{self.tree}"]]', '["m.sed", ["../x"]]', '["m.sed", [".git/x"]]'):
            config.write(note, text)
            with self.subTest(text), self.assertRaisesRegex(
                    run.HarnessError, r'linux.overlay: unreadable .*delete it'):
                run.take_off(work)
            self.assertEqual(run.git(self.tree, *status).stdout, mine, text)
        # A note whose tree is gone (deleted, moved aside) goes, and nothing else happens.
        config.write(note, json.dumps(['m.sed', ['kernel/sched/core.c']]))
        os.rename(self.tree, self.tree + '.old')
        run.take_off(work)
        self.assertFalse(os.path.exists(note))

    def test_signals_wait(self):
        got = []
        old = signal.signal(signal.SIGALRM, lambda *_: got.append(time.monotonic()))
        self.addCleanup(signal.signal, signal.SIGALRM, old)
        t0 = time.monotonic()
        with run.Deferred():
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            time.sleep(0.3)
            self.assertEqual(got, [])
        self.assertEqual(len(got), 1)
        self.assertGreaterEqual(got[0] - t0, 0.3)


class CommandTest(unittest.TestCase):
    """Stopped, a command's whole group gets SIGTERM, then SIGKILL:
    nothing it started outlives the run."""

    def stop(self, script: str) -> None:
        """Run bash -c @script ({pid}: a file for the pid to watch), stop
        it at once, and check that the pid is gone."""
        with tempfile.TemporaryDirectory() as d:
            pid_file = os.path.join(d, 'pid')
            old = signal.signal(signal.SIGALRM, run.on_signal)
            self.addCleanup(signal.signal, signal.SIGALRM, old)
            wait, run.TERM_WAIT = run.TERM_WAIT, 1
            self.addCleanup(setattr, run, 'TERM_WAIT', wait)
            signal.alarm(1)
            with self.assertRaises(run.Stopped):
                run.command(['bash', '-c', script.format(pid=pid_file)], os.path.join(d, 'log'))
            with open(pid_file, encoding='utf-8') as f:
                pid = int(f.read())
            for _ in range(20):
                if not alive(pid):
                    break
                time.sleep(0.1)
            self.assertFalse(alive(pid), 'a process of the run outlived it')

    def test_a_group_that_ignores_sigterm_is_killed(self):
        self.stop('trap "" TERM; sleep 60 & echo $! >{pid}; wait')

    def test_what_the_group_leader_leaves_is_killed(self):
        """The leader ends on SIGTERM, a process of its group ignores it."""
        self.stop('bash -c \'trap "" TERM; echo $$ >{pid}; exec sleep 60\' & wait')


class KernelsTest(unittest.TestCase):
    def test_each_kernel_in_turn(self):
        """Every command runs each kernel of ci/matrix.json in turn (or those --kernel names),
        ends with the worst exit status, and stops at the first stopped by a signal."""
        main = __import__('sched_tinify.__main__', fromlist=['main'])
        data = config.load()
        data = dict(data, kernels=data['kernels'] + [dict(data['kernels'][0],
                                                          package='linux-source-6.12')])
        with mock.patch.object(config, 'load', return_value=data), \
                mock.patch.object(main.render, 'overview') as overview:
            for argv, rcs, want, ran in (
                    (['judge'], [1, 0], 1, ['linux-source-6.1', 'linux-source-6.12']),
                    (['judge'], [0, 2], 2, ['linux-source-6.1', 'linux-source-6.12']),
                    (['judge'], [130, 0], 130, ['linux-source-6.1']),
                    (['judge', '--kernel', 'linux-source-6.12'], [0], 0, ['linux-source-6.12'])):
                with self.subTest(argv=argv, rcs=rcs), mock.patch.object(
                        main, 'one_kernel', side_effect=rcs) as one:
                    self.assertEqual(main.main(argv), want)
                    self.assertEqual([c.args[2].package for c in one.call_args_list], ran)
                    self.assertEqual(overview.call_args.args[1], [k for k in [
                        'linux-source-6.1', 'linux-source-6.12'] if k in ran or len(rcs) == 2])
        with mock.patch.object(config, 'load', return_value=data), \
                mock.patch('sys.stderr') as err:
            self.assertEqual(main.main(['judge', '--kernel', '6.12']), 2)
        self.assertIn('unknown kernel(s): 6.12', str(err.mock_calls))
        # The test command sets every kernel up before it runs any: checkpatch.sh reads each
        # series in its tree. A set-up that fails ends it.
        with mock.patch.object(config, 'load', return_value=data), \
                mock.patch.object(main.render, 'overview'), mock.patch('sys.stdout'):
            for rcs, want, calls in (([0, 0, 0, 1], 1, ['prepare', 'prepare', 'test', 'test']),
                                     ([2], 2, ['prepare'])):
                with mock.patch.object(main, 'one_kernel', side_effect=rcs) as one:
                    self.assertEqual(main.main(['test']), want)
                self.assertEqual([(c.args[0].command, c.args[2].package)
                                  for c in one.call_args_list],
                                 list(zip(calls, ['linux-source-6.1', 'linux-source-6.12'] * 2)))
        # One package's settings with two kernels: refused; with one named, taken.
        with mock.patch.object(config, 'load', return_value=data), \
                mock.patch.dict(os.environ, SCHED_TINIFY_SERIES='/nowhere'), \
                mock.patch.object(main, 'one_kernel', return_value=0) as one, \
                mock.patch.object(main.render, 'overview'), mock.patch('sys.stderr') as err:
            self.assertEqual(main.main(['judge']), 2)
            self.assertIn('SCHED_TINIFY_SERIES: one kernel', str(err.mock_calls))
            self.assertEqual(main.main(['judge', '--kernel', 'linux-source-6.12']), 0)
            with mock.patch.dict(os.environ, SCHED_TINIFY_KERNEL='linux-source-6.12'):
                self.assertEqual(main.main(['judge']), 0)
            self.assertEqual([c.args[2].package for c in one.call_args_list],
                             ['linux-source-6.12'] * 2)


class WorkTest(unittest.TestCase):
    def test_kbuild_cannot_build_in_a_folder_with_a_space_or_colon(self):
        for bad in ('/tmp/a b', '/tmp/a:b'):
            with self.subTest(bad), self.assertRaisesRegex(config.ConfigError, 'space or a colon'):
                run.Work.from_env(config.kernels(config.load())[0], {'SCHED_TINIFY_WORK': bad})


class SignalsTest(unittest.TestCase):
    def test_an_ignored_signal_stays_ignored(self):
        """nohup: the terminal's SIGHUP must not stop the run."""
        saved = {s: signal.getsignal(s) for s in run.SIGNALS + (run.DEADLINE,)}
        self.addCleanup(lambda: [signal.signal(s, h) for s, h in saved.items()])
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        run.catch_signals()
        self.assertEqual(signal.getsignal(signal.SIGHUP), signal.SIG_IGN)
        self.assertEqual(signal.getsignal(signal.SIGTERM), run.on_signal)

    def test_a_bad_setting_is_the_harness_failure(self):
        """Exit 2 with a message, never a traceback and 1 (red)."""
        proc = subprocess.run([sys.executable, '-m', 'sched_tinify', 'test', '--no-checks'],
                              cwd=faketree.REPO, capture_output=True, text=True, check=False,
                              env=dict(os.environ, SCHED_TINIFY_BUDGET='abc'))
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertNotIn('Traceback', proc.stderr)
        self.assertIn("argument --budget: invalid int value: 'abc'", proc.stderr)


class FreshTest(unittest.TestCase):
    def test_rule(self):
        cases = [(None, False), ({}, False), ({'key': 'k', 'complete': True}, True),
                 ({'key': 'k', 'complete': True, 'harness_error': 'a dirty tree'}, False),
                 ({'key': 'k', 'complete': False}, False), ({'key': 'x', 'complete': True}, False)]
        for result, fresh in cases:
            with self.subTest(result):
                self.assertIs(not run.stale(result, 'k'), fresh)

    def test_why_not(self):
        """What the report says of a result that is not fresh: a harness
        failure by its words (the peer check run without root)."""
        for result, why in ((None, 'not run'), ({'key': 'x', 'complete': True}, 'stale'),
                            ({'key': 'k', 'complete': False}, 'incomplete'),
                            ({'key': 'k', 'complete': True, 'harness_error': 'not root'},
                             'harness failure: not root'),
                            ({'key': 'k', 'complete': True}, '')):
            with self.subTest(result):
                self.assertEqual(run.stale(result, 'k'), why)

    def test_scope_of_a_build(self):
        t = config.Target(name='b', arch='arm', cross_compile='', compiler='gcc',
                          console='ttyAMA0', kunitconfig=('kunitconfigs/arm-up',),
                          build_only=True)
        self.assertNotEqual(config.key(run.inputs_of(t, 'a' * 40, True)),
                            config.key(run.inputs_of(t, 'a' * 40, False)))

    def test_a_whole_build_stands_for_a_sched_only_one(self):
        """And not the other way round: a kernel/sched/-only build never replaces a whole one."""
        t = config.Target(name='b', arch='arm', cross_compile='', compiler='gcc',
                          console='ttyAMA0', kunitconfig=('kunitconfigs/arm-up',),
                          build_only=True)
        with tempfile.TemporaryDirectory() as d:
            work = run.Work('pkg', d, os.path.join(d, 'results'))
            for whole in (True, False):
                key = config.key(run.inputs_of(t, 'a' * 40, not whole))
                config.write(os.path.join(work.out('01', 'b'), 'result.json'),
                             json.dumps({'key': key, 'complete': True}))
                self.assertEqual((run.kept(work, t, '01', 'a' * 40, sched_only=True),
                                  run.kept(work, t, '01', 'a' * 40, sched_only=False)),
                                 (True, whole))

    def test_touched_files(self):
        series = os.path.join(faketree.REPO, 'patches', 'linux-source-6.1')
        touched = run.touched_files(series)
        self.assertIn('kernel/sched/core.c', touched)
        self.assertIn('include/linux/sched.h', touched)
        self.assertEqual(touched, sorted(set(touched)))


if __name__ == '__main__':
    unittest.main()
