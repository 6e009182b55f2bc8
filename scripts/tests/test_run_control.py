"""The harness's run control through its shell entry points, on a fake
kernel package (tests/faketree.py): one run at a time per work folder,
and one Ctrl-C, SIGHUP or SIGTERM that stops the whole run at once, kills
QEMU, leaves the tree usable and marks the interrupted result incomplete."""

import json
import os
import signal
import subprocess
import time
import unittest

from tests import faketree
from tests.faketree import FAKE_KUNIT_PY, alive, as_from_a_terminal
from tests.test_run import Package

CELL = 'x86_64-smp'
SCRIPTS = os.path.join(faketree.REPO, 'scripts')


@faketree.needs_tree
class RunControlTest(unittest.TestCase):

    def setUp(self):
        faketree.require_tools(faketree.TOOLS + ('flock', 'setsid', 'ar', 'size'))
        if subprocess.run([os.path.join(faketree.REPO, 'scripts', 'deps.sh'), '--check'],
                          capture_output=True, check=False).returncode:
            self.skipTest('packages missing: run scripts/deps.sh')
        self.pkg = Package(kunit_py=FAKE_KUNIT_PY)
        self.addCleanup(self.pkg.cleanup)
        proc = self.pkg.prepare()
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def start(self, *argv):
        """Start a script as a terminal would: in a process group of its own."""
        return subprocess.Popen([os.path.join(SCRIPTS, argv[0]), *argv[1:]],
                                env=self.pkg.env(), cwd=self.pkg.root,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True,
                                preexec_fn=as_from_a_terminal)

    def wait_for_pid(self, proc, pid_file, what):
        """The pid a process of the run writes to PID_FILE once it runs."""
        for _ in range(600):
            if os.path.exists(pid_file) and os.path.getsize(pid_file):
                with open(pid_file, encoding='utf-8') as f:
                    return int(f.read())
            if proc.poll() is not None:
                self.fail(f'ended before {what} started: {proc.communicate()}')
            time.sleep(0.1)
        self.fail(f'{what} never started')
        return None

    def wait_for_qemu(self, proc):
        return self.wait_for_pid(proc, os.path.join(self.pkg.build, CELL, 'qemu.pid'), 'QEMU')

    def result(self):
        path = os.path.join(self.pkg.results, self.pkg.pkg, '00-baseline', CELL, 'result.json')
        with open(path, encoding='utf-8') as f:
            return json.load(f)

    def stop_and_check(self, proc, send, rc, sig_name):
        """Send a signal, then check that everything stopped, that the cell
        says what stopped it and that the report calls it incomplete."""
        qemu = self.wait_for_qemu(proc)
        t0 = time.monotonic()
        send(proc)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            self.fail('the run did not stop within 30 s')
        self.assertLess(time.monotonic() - t0, 20)
        self.assertEqual(proc.returncode, rc, err)
        for _ in range(50):
            if not alive(qemu):
                break
            time.sleep(0.1)
        self.assertFalse(alive(qemu), 'QEMU outlived the run')
        res = self.result()
        self.assertEqual((res['complete'], res.get('interrupted')), (False, sig_name))
        # What decides the result is recorded before the run starts.
        self.assertEqual(set(res['inputs']), {'sha', 'target', 'kunitconfig', 'compiler', 'qemu',
                                              'kunit_timeout'})
        with open(os.path.join(self.pkg.results, self.pkg.pkg, '00-baseline', CELL, 'cmd'),
                  encoding='utf-8') as f:
            cmd = f.read()
        self.assertIn(f'cd {self.pkg.tree}\n', cmd)
        self.assertIn("'--qemu_args=-smp 4'", cmd)
        self.assertEqual(self.pkg.git('status', '--porcelain'), '')
        # The lock went with the run: the next one starts.
        again = self.pkg.prepare()
        self.assertEqual(again.returncode, 0, again.stderr)

    def test_ctrl_c_stops_the_matrix(self):
        proc = self.start('matrix.sh', '--targets', CELL, '--steps', '00-baseline')
        self.stop_and_check(proc, lambda p: os.killpg(p.pid, signal.SIGINT), 130, 'SIGINT')

    def test_hangup_stops_everything(self):
        """The terminal closed: its SIGHUP reaches only the top script."""
        proc = self.start('matrix.sh', '--targets', CELL, '--steps', '00-baseline')
        self.stop_and_check(proc, lambda p: os.killpg(p.pid, signal.SIGHUP), 129, 'SIGHUP')

    def test_sigterm_to_the_matrix_alone_stops_everything(self):
        proc = self.start('matrix.sh', '--targets', CELL, '--steps', '00-baseline')
        self.stop_and_check(proc, lambda p: p.send_signal(signal.SIGTERM), 143, 'SIGTERM')

    def test_second_run_is_refused_while_the_first_holds_the_lock(self):
        first = self.start('matrix.sh', '--targets', CELL, '--steps', '00-baseline')
        self.addCleanup(lambda: first.poll() is None and os.killpg(first.pid, signal.SIGKILL))
        self.wait_for_qemu(first)
        for argv in (['matrix.sh', '--prepare-only'], ['matrix.sh', '--targets', 'x86_64-up'],
                     ['matrix.sh', '--judge'], ['mutants.sh', 'kunit/mutants/ci-subset']):
            with self.subTest(argv=argv):
                t0 = time.monotonic()
                proc = self.pkg.run(*argv, timeout=30, scripts_dir=SCRIPTS)
                self.assertEqual(proc.returncode, 75, proc.stderr)
                self.assertLess(time.monotonic() - t0, 10)
                self.assertIn('another run holds', proc.stderr)
                self.assertIn(f'pid {first.pid}, started ', proc.stderr)
                self.assertIn(f'stop it with kill {first.pid}', proc.stderr)
                self.assertIn(f'command: sched_tinify run --targets {CELL} --steps 00-baseline',
                              proc.stderr)
        # The pipeline itself, started by hand, is refused the same way.
        proc = subprocess.run(['python3', '-m', 'sched_tinify', 'run', '--targets', CELL],
                              cwd=faketree.REPO, env=self.pkg.env(), capture_output=True,
                              text=True, check=False, timeout=30)
        self.assertEqual(proc.returncode, 75, proc.stderr)
        self.assertIn(f'pid {first.pid}, started ', proc.stderr)
        # Nothing of the second runs touched the first one's work.
        self.assertTrue(os.path.exists(self.pkg.steps_file))
        self.assertEqual(first.poll(), None)
        os.killpg(first.pid, signal.SIGINT)
        first.communicate(timeout=30)

    def test_build_only(self):
        """The CI job of the build-only configurations: nothing else runs;
        at a step without the option of "needs", its kunitconfig section is left out."""
        # The options of the targets' "needs", from the first patch on.
        self.pkg.add_patch('dl', 'diff --git a/init/Kconfig b/init/Kconfig\nnew file mode 100644\n'
                           '--- /dev/null\n+++ b/init/Kconfig\n@@ -0,0 +1,6 @@\n'
                           '+config SCHED_CLASS_DL\n+\tbool "DL"\n+config SCHED_CLASS_RT\n'
                           '+\tbool "RT"\n+config SCHED_ATTR_SYSCALLS\n+\tbool "calls"\n')
        proc = self.pkg.run('matrix.sh', '--targets', 'x86_64-up-lean,x86_64-up-lean-nodl',
                            scripts_dir=SCRIPTS, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn('00-baseline x86_64-up-lean: build ', proc.stdout)
        self.assertIn('0 W=1 warning(s), 0 new', proc.stdout)
        self.assertIn('verdict: GREEN: 4 target step(s) judged', proc.stdout)
        self.assertEqual(sorted(os.listdir(os.path.join(self.pkg.results, self.pkg.pkg,
                                                        'junit'))),
                         ['report.xml', 'x86_64-up-lean-nodl.xml', 'x86_64-up-lean.xml'])
        for step, section in (('01-dl', 'used'), ('00-baseline', 'left out')):
            out = os.path.join(self.pkg.results, self.pkg.pkg, step, 'x86_64-up-lean-nodl')
            with open(os.path.join(out, 'result.json'), encoding='utf-8') as f:
                self.assertEqual(json.load(f)['needs_section'], section)
        with open(os.path.join(out, 'kunitconfig'), encoding='utf-8') as f:
            text = f.read()
        self.assertIn('CONFIG_KUNIT=y\n', text)
        self.assertNotIn('\n# needs SCHED_CLASS_DL:\n', text)
        proc = self.pkg.run('matrix.sh', '--kinds', 'build', '--reuse', scripts_dir=SCRIPTS,
                            timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn('00-baseline x86_64-up-lean: fresh result kept', proc.stdout)
        self.assertIn('00-baseline arm-up-nort: started', proc.stdout)


class DieTest(unittest.TestCase):
    """No tree or package needed: a fresh clone runs this too."""

    def test_die_is_a_harness_failure(self):
        """die is the harness's failure (2, as README.rst says), its message on stderr."""
        proc = subprocess.run(['bash', '-c', '. "$1" && die oops; echo went on', '-',
                               os.path.join(SCRIPTS, 'lib.sh')],
                              capture_output=True, text=True, check=False)
        self.assertEqual((proc.returncode, proc.stdout, proc.stderr), (2, '', '-: error: oops\n'))


if __name__ == '__main__':
    unittest.main()
