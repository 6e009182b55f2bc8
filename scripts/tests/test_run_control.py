# SPDX-License-Identifier: GPL-2.0
"""The harness's run control, on a fake kernel package (tests/faketree.py):
one run at a time per work folder, and one Ctrl-C or SIGTERM that stops
the whole run at once, kills QEMU, leaves the tree usable and marks the
interrupted cell incomplete.

The fake tree's tools/testing/kunit/kunit.py "builds" in a blink and
"execs" by starting a long sleep as its QEMU and waiting on it; like the
real kunit.py it swallows SIGINT and exits normally.
"""

import os
import signal
import subprocess
import time
import unittest

import report
from tests import faketree

FAKE_KUNIT_PY = r'''
import os
import shutil
import subprocess
import sys

cmd = sys.argv[1]
bdir = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--build_dir=')][0]
kunitconfig = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--kunitconfig=')][0]
if cmd == 'build':
    os.makedirs(os.path.join(bdir, 'kernel', 'sched'), exist_ok=True)
    shutil.copy(kunitconfig, os.path.join(bdir, '.config'))
    shutil.copy('/bin/true', os.path.join(bdir, 'vmlinux'))
    shutil.copy('/bin/true', os.path.join(bdir, 'kernel', 'sched', 'core.o'))
    subprocess.run(['ar', 'rcs', os.path.join(bdir, 'kernel', 'sched', 'built-in.a'),
                    os.path.join(bdir, 'kernel', 'sched', 'core.o')], check=True)
    sys.exit(0)
qemu = subprocess.Popen(['sleep', '300'])
with open(os.path.join(bdir, 'test.log'), 'w') as log:
    log.write('KTAP version 1\n1..1\n')
with open(os.path.join(bdir, 'qemu.pid'), 'w') as f:
    f.write(str(qemu.pid))
try:
    qemu.wait()
except KeyboardInterrupt:
    pass
sys.exit(0)
'''

CELL = 'x86_64-smp'
# Another copy of scripts/ to run (to see these tests fail on older ones).
SCRIPTS = os.environ.get('SCHED_TINIFY_TEST_SCRIPTS') or os.path.join(faketree.REPO, 'scripts')


def as_from_a_terminal():
    """In the child, before exec: SIGINT, SIGQUIT and SIGHUP as a terminal
    gives them. This test may run where they are ignored (a background job
    of a shell, as under scripts/test.sh; SIGHUP under nohup), and a script
    that starts with a signal ignored cannot trap it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def alive(pid):
    """Whether PID runs (a zombie waiting for its parent does not)."""
    try:
        with open(f'/proc/{pid}/stat', encoding='utf-8') as f:
            return f.read().split(')')[-1].split()[0] != 'Z'
    except OSError:
        return False


class RunControlTest(unittest.TestCase):

    def setUp(self):
        faketree.require_tools(faketree.TOOLS + ('flock', 'setsid', 'ar', 'size'))
        if subprocess.run([os.path.join(faketree.REPO, 'scripts', 'deps.sh'), '--check'],
                          capture_output=True, check=False).returncode:
            self.skipTest('packages missing: run scripts/deps.sh')
        self.pkg = faketree.FakePackage(kunit_py=FAKE_KUNIT_PY)
        self.addCleanup(self.pkg.cleanup)
        proc = self.pkg.run('prepare-tree.sh', scripts_dir=SCRIPTS)
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

    def stop_nested(self, command, pid_file, limit):
        """Start bash -c COMMAND holding the lock, stop it with SIGTERM once
        the process it runs wrote PID_FILE; check it stopped within LIMIT
        seconds, left nothing behind and freed the lock."""
        proc = subprocess.Popen(['bash', '-c', '. "$1"/lib.sh && lock_work && ' + command, '-',
                                 SCRIPTS, pid_file], env=self.pkg.env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, preexec_fn=as_from_a_terminal)
        pid = self.wait_for_pid(proc, pid_file, 'the command')
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 143)
        self.assertLess(time.monotonic() - t0, limit)
        for _ in range(20):
            if not alive(pid):
                break
            time.sleep(0.1)
        self.assertFalse(alive(pid), 'a command of the run outlived it')
        again = self.pkg.run('prepare-tree.sh', scripts_dir=SCRIPTS)
        self.assertEqual(again.returncode, 0, again.stderr)

    def meta(self):
        path = os.path.join(self.pkg.results, self.pkg.pkg, '00-baseline', CELL, 'meta')
        with open(path, encoding='utf-8') as f:
            return f.read().splitlines()

    def stop_and_check(self, proc, send, rc, sig_name, cell_sig=None):
        """Send a signal, then check that everything stopped, that the cell
        says what stopped it (CELL_SIG: a cell stopped by its parent says
        SIGTERM) and that the report calls it incomplete."""
        cell_sig = cell_sig or sig_name
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
        meta = self.meta()
        self.assertNotIn('complete=y', meta)
        # What decides the result is recorded before the run starts.
        for key in ('input_kunitconfig_sha256=', 'input_entry_sha256=', 'input_qemu_args=-smp 4',
                    'input_kunit_timeout=240', 'input_kconfig_add=', 'input_compiler=',
                    'input_qemu=', 'build_cmd=python3 tools/testing/kunit/kunit.py build',
                    'exec_cmd=python3 tools/testing/kunit/kunit.py exec'):
            self.assertTrue(any(line.startswith(key) for line in meta), key)
        with open(os.path.join(self.pkg.results, self.pkg.pkg, '00-baseline', CELL, 'cmd'),
                  encoding='utf-8') as f:
            cmd = f.read()
        self.assertIn(f'cd {self.pkg.tree}\n', cmd)
        self.assertIn('--qemu_args=-smp\\ 4 ', cmd)
        # The commands as argument lists too, for the scripts that run them
        # again without evaluating text (debug-selfcheck.sh).
        with open(os.path.join(self.pkg.results, self.pkg.pkg, '00-baseline', CELL,
                               'exec.argv'), encoding='utf-8') as f:
            argv = f.read().split('\0')
        self.assertEqual(argv[:4], ['python3', 'tools/testing/kunit/kunit.py', 'exec',
                                    '--arch=x86_64'])
        self.assertIn('--qemu_args=-smp 4', argv)
        self.assertEqual(meta[-1], f'interrupted={cell_sig}')
        self.assertEqual(self.pkg.git('status', '--porcelain'), '')
        # The report calls the cell incomplete, not a kernel that did not
        # boot (it does not parse an incomplete log: no parser needed).
        cell = report.load_cell(None, os.path.join(self.pkg.results, self.pkg.pkg),
                                '00-baseline', CELL, None)
        self.assertEqual(cell.status, 'incomplete')
        self.assertEqual(cell.problems, [f'incomplete: interrupted by {cell_sig}'])
        # The lock went with the run: the next one starts.
        again = self.pkg.run('prepare-tree.sh', scripts_dir=SCRIPTS)
        self.assertEqual(again.returncode, 0, again.stderr)

    def test_ctrl_c_stops_the_matrix(self):
        proc = self.start('matrix.sh', '--cells', CELL, '--steps', '00-baseline')
        self.stop_and_check(proc, lambda p: os.killpg(p.pid, signal.SIGINT), 130, 'SIGINT',
                            'SIGTERM')

    def test_hangup_stops_everything(self):
        """The terminal closed: its SIGHUP reaches only the top script."""
        proc = self.start('matrix.sh', '--cells', CELL, '--steps', '00-baseline')
        self.stop_and_check(proc, lambda p: os.killpg(p.pid, signal.SIGHUP), 129, 'SIGHUP',
                            'SIGTERM')

    def test_sigterm_to_the_matrix_alone_stops_everything(self):
        proc = self.start('matrix.sh', '--cells', CELL, '--steps', '00-baseline')
        self.stop_and_check(proc, lambda p: p.send_signal(signal.SIGTERM), 143, 'SIGTERM')

    def test_ctrl_c_stops_a_cell_run_by_hand(self):
        proc = self.start('run-cell.sh', '00-baseline', CELL)
        self.stop_and_check(proc, lambda p: os.killpg(p.pid, signal.SIGINT), 130, 'SIGINT')

    def test_second_run_is_refused_while_the_first_holds_the_lock(self):
        first = self.start('run-cell.sh', '00-baseline', CELL)
        self.addCleanup(lambda: first.poll() is None and os.killpg(first.pid, signal.SIGKILL))
        self.wait_for_qemu(first)
        for argv in (['prepare-tree.sh'], ['run-cell.sh', '00-baseline', 'x86_64-up'],
                     ['matrix.sh', '--cells', 'x86_64-up'], ['mutants.sh', 'kunit/mutants/ci-subset']):
            with self.subTest(argv=argv):
                t0 = time.monotonic()
                proc = self.pkg.run(*argv, timeout=30, scripts_dir=SCRIPTS)
                self.assertEqual(proc.returncode, 75, proc.stderr)
                self.assertLess(time.monotonic() - t0, 10)
                self.assertIn('another run holds', proc.stderr)
                self.assertIn(f'pid {first.pid}, started ', proc.stderr)
                self.assertIn(f'stop it with kill {first.pid}', proc.stderr)
                self.assertIn('command: run-cell.sh 00-baseline x86_64-smp', proc.stderr)
        # Nothing of the second runs touched the first one's work.
        self.assertTrue(os.path.exists(self.pkg.steps_file))
        self.assertEqual(first.poll(), None)
        os.killpg(first.pid, signal.SIGINT)
        first.communicate(timeout=30)

    def test_a_slow_command_of_a_child_script_does_not_outlive_the_run(self):
        """SIGTERM reaches the child's whole process group at once: no wait
        for its foreground command to end, no orphan holding the lock."""
        self.stop_nested('run bash -c "sleep 40 & echo \\$! >$2; wait"',
                         os.path.join(self.pkg.root, 'sleep.pid'), 5)

    def test_each_level_stops_its_own_child_first(self):
        """A command that ignores SIGTERM two levels down is killed by the
        script that started it (after 12 s), before that script's parent
        gives up on it (15 s): nothing is left behind."""
        inner = os.path.join(self.pkg.root, 'inner.sh')
        with open(inner, 'w', encoding='utf-8') as f:
            f.write(f'#!/usr/bin/env bash\nset -euo pipefail\n. {SCRIPTS}/lib.sh\n'
                    'run bash -c \'trap "" TERM; echo $$ >"$1"; exec sleep 60\' - "$1"\n')
        os.chmod(inner, 0o755)
        self.stop_nested(f'run {inner} "$2"', os.path.join(self.pkg.root, 'stubborn.pid'), 14.5)

    def test_build_only_without_a_cell(self):
        """The CI job of the build-only configurations: no cell is run or judged."""
        proc = self.pkg.run('matrix.sh', '--cells', 'none', '--builds', 'x86_64-up-lean',
                            scripts_dir=SCRIPTS, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn('[1/1] 00-baseline x86_64-up-lean: built in ', proc.stdout)
        self.assertIn('verdict: GREEN: 0 cell step(s) judged', proc.stdout)
        self.assertEqual(os.listdir(os.path.join(self.pkg.results, self.pkg.pkg, 'junit')),
                         ['build-only.xml'])
        # --cells none alone means the same, never an empty green run.
        proc = self.pkg.run('matrix.sh', '--cells', 'none', '--reuse', scripts_dir=SCRIPTS,
                            timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn('00-baseline x86_64-up-lean: fresh result kept', proc.stdout)
        self.assertIn('00-baseline x86_64-smp-lean: built in ', proc.stdout)
        proc = self.pkg.run('matrix.sh', '--cells', 'none', '--builds', 'none',
                            scripts_dir=SCRIPTS)
        self.assertEqual(proc.returncode, 2)
        self.assertIn('nothing to run', proc.stderr)

    def test_exit_statuses(self):
        """die is the harness's failure (2, as README.rst says), red a
        failure of what is checked (1), fail_with passes a child's on."""
        lib = os.path.join(SCRIPTS or os.path.join(faketree.REPO, 'scripts'), 'lib.sh')
        for cmd, rc in (('die oops', 2), ('red oops', 1), ('fail_with 1 oops', 1),
                        ('fail_with 2 oops', 2), ('fail_with 75 oops', 2)):
            proc = subprocess.run(['bash', '-c', f'. "$1" && {cmd}', '-', lib],
                                  capture_output=True, text=True, check=False,
                                  env=self.pkg.env())
            self.assertEqual(proc.returncode, rc, cmd)
            self.assertIn('error: oops', proc.stderr)

    def test_scripts_started_by_the_holder_go_on(self):
        proc = subprocess.run(
            ['bash', '-c', '. "$1"/lib.sh && lock_work && "$1"/prepare-tree.sh',
             '-', SCRIPTS], env=self.pkg.env(), capture_output=True, text=True,
            check=False, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)


if __name__ == '__main__':
    unittest.main()
