# SPDX-License-Identifier: GPL-2.0
"""A fake kernel source package, for tests that run the project's scripts.

FakePackage builds, in a temporary folder, a tiny linux-source-6.1.tar.xz
(a Makefile with the kernel version, the two files kunit/hook-6.1.patch
patches, a tools/testing/kunit/kunit.py placeholder), a series folder with
an empty series (only the 00-baseline step), and the environment that
points the scripts at them instead of /usr/src, dpkg and work/:

    pkg = FakePackage()
    self.addCleanup(pkg.cleanup)
    proc = pkg.prepare()
    pkg.bump_version()

Nothing outside the temporary folder is written.
"""

import io
import os
import signal
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

REPO = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
PKG = 'linux-source-6.1'
TOOLS = ('git', 'xz', 'tar')

DEFAULT_KUNIT_PY = '''\
import sys

print('fake kunit.py', *sys.argv[1:])
'''


def require_tools(tools=TOOLS):
    """Skip the calling test when a command the scripts need is missing."""
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        raise unittest.SkipTest(f'{", ".join(missing)} not installed: run scripts/deps.sh')


def preimages(patch_text):
    """{path: file content} that a unified diff applies to.

    Each hunk's preimage (context and removed lines) is put at its old line
    number, after filler lines; a file ends with its last hunk's preimage,
    so a hunk with no trailing context matches the end of the file.
    """
    files = {}
    path = None
    lines = patch_text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith('--- '):
            continue
        if line.startswith('+++ '):
            path = line[4:].split('\t')[0]
            path = path[2:] if path.startswith('b/') else path
            files.setdefault(path, [])
            continue
        m = re.match(r'@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@', line)
        if not m or path is None:
            continue
        start, old = int(m.group(1)), int(m.group(2) or 1)
        new = int(m.group(3) or 1)
        out = files[path]
        while len(out) < start - 1:
            out.append(f'/* {path}:{len(out) + 1} */')
        while (old or new) and i < len(lines):
            body = lines[i]
            i += 1
            if body.startswith('\\'):
                continue
            kind, text = (body[0], body[1:]) if body else (' ', '')
            if kind in ' -':
                out.append(text)
                old -= 1
            if kind in ' +':
                new -= 1
    return {p: ''.join(f'{line}\n' for line in out) for p, out in files.items()}


class FakePackage:
    """A fake kernel source package and a work folder of its own."""

    def __init__(self, version='6.1.192-1', sublevel=192, kunit_py=None,
                 hook_patch=os.path.join(REPO, 'kunit', 'hook-6.1.patch')):
        """kunit_py: the body of tools/testing/kunit/kunit.py (Python,
        after the #! line); the default prints its arguments."""
        self.root = tempfile.mkdtemp(prefix='sched-tinify-test.')
        self.pkg = PKG
        self.work = os.path.join(self.root, 'work')
        self.results = os.path.join(self.root, 'results')
        self.series = os.path.join(self.root, 'series')
        self.tarball = os.path.join(self.root, 'src', f'{PKG}.tar.xz')
        self.kunit_py = DEFAULT_KUNIT_PY if kunit_py is None else kunit_py
        with open(hook_patch, encoding='utf-8') as f:
            self.hook_files = preimages(f.read())
        os.makedirs(self.series)
        with open(os.path.join(self.series, 'series'), 'w', encoding='utf-8'):
            pass
        self.set_version(version, sublevel)

    # The paths sched_tinify derives from SCHED_TINIFY_WORK.
    @property
    def pkg_dir(self):
        return os.path.join(self.work, PKG)

    @property
    def tree(self):
        return os.path.join(self.pkg_dir, 'linux')

    @property
    def scratch(self):
        return os.path.join(self.pkg_dir, 'compose')

    @property
    def build(self):
        return os.path.join(self.pkg_dir, 'build')

    @property
    def steps_file(self):
        return os.path.join(self.pkg_dir, 'steps')

    @property
    def stamp(self):
        return os.path.join(self.pkg_dir, 'package-version')

    def files(self):
        """{path in the package: (content, mode)}."""
        makefile = (f'# SPDX-License-Identifier: GPL-2.0\nVERSION = 6\nPATCHLEVEL = 1\n'
                    f'SUBLEVEL = {self.sublevel}\nEXTRAVERSION =\nNAME = Fake\n')
        # The kernel's .gitignore hides what git format-patch writes.
        files = {'Makefile': (makefile, 0o644), '.gitignore': ('*.patch\n*.orig\n', 0o644),
                 'tools/testing/kunit/kunit.py':
                     ('#!/usr/bin/env python3\n' + self.kunit_py, 0o755)}
        for path, content in self.hook_files.items():
            files[path] = (content, 0o644)
        return files

    def set_version(self, version, sublevel):
        """(Re)write the tarball as package version VERSION, kernel
        6.1.SUBLEVEL."""
        self.version, self.sublevel = version, sublevel
        os.makedirs(os.path.dirname(self.tarball), exist_ok=True)
        tmp = self.tarball + '.tmp'
        with tarfile.open(tmp, 'w:xz') as tar:
            dirs = set()
            for path, (content, mode) in sorted(self.files().items()):
                parts = path.split('/')[:-1]
                for n in range(len(parts) + 1):
                    d = '/'.join([PKG] + parts[:n])
                    if d not in dirs:
                        dirs.add(d)
                        info = tarfile.TarInfo(d)
                        info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, 1496091782
                        tar.addfile(info)
                data = content.encode()
                info = tarfile.TarInfo(f'{PKG}/{path}')
                info.size, info.mode, info.mtime = len(data), mode, 1496091782
                tar.addfile(info, io.BytesIO(data))
        os.replace(tmp, self.tarball)

    def add_patch(self, subject, diff):
        """A patch of the series, after the others: a step of its own."""
        with open(os.path.join(self.series, 'series'), encoding='utf-8') as f:
            names = f.read().split()
        name = f'{len(names) + 1:04d}-{subject}.patch'
        with open(os.path.join(self.series, name), 'w', encoding='utf-8') as f:
            f.write('From: Dev <dev@example.org>\nDate: Thu, 3 Dec 2026 06:18:33 +0000\n'
                    f'Subject: [PATCH] {subject}\n\n{subject}.\n\n'
                    f'Signed-off-by: Dev <dev@example.org>\n---\n{diff}')
        with open(os.path.join(self.series, 'series'), 'w', encoding='utf-8') as f:
            f.write(''.join(f'{n}\n' for n in names + [name]))

    def bump_version(self):
        """A new upstream release: SUBLEVEL + 1. Returns the new version."""
        self.set_version(f'6.1.{self.sublevel + 1}-1', self.sublevel + 1)
        return self.version

    def env(self, **extra):
        """os.environ without any SCHED_TINIFY_* of the caller, pointed at
        this package, plus EXTRA."""
        env = {k: v for k, v in os.environ.items() if not k.startswith('SCHED_TINIFY_')}
        env.update(SCHED_TINIFY_KERNEL=PKG, SCHED_TINIFY_WORK=self.work,
                   SCHED_TINIFY_RESULTS=self.results,
                   SCHED_TINIFY_TARBALL=self.tarball,
                   SCHED_TINIFY_PKG_VERSION=self.version,
                   SCHED_TINIFY_SERIES=self.series)
        env.update(extra)
        return env

    def run(self, script, *args, scripts_dir=None, timeout=60, env=None):
        """Run scripts/SCRIPT ARGS against this package; returns the
        CompletedProcess (text stdout and stderr). scripts_dir: another
        copy of scripts/."""
        path = os.path.join(scripts_dir or os.path.join(REPO, 'scripts'), script)
        return subprocess.run([path, *args], env=env or self.env(), cwd=self.root,
                              stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=timeout, check=False)

    def prepare(self, timeout=60):
        """python3 -m sched_tinify prepare, against this package."""
        return subprocess.run([sys.executable, '-m', 'sched_tinify', 'prepare'],
                              env=self.env(PYTHONPATH=REPO), cwd=self.root,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout, check=False)

    def git(self, *args, cwd=None, check=True, env=None):
        """git ARGS in the tree (or CWD); returns its stdout, stripped."""
        proc = subprocess.run(['git', *args], cwd=cwd or self.tree, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, check=False)
        if check and proc.returncode:
            raise AssertionError(f'git {" ".join(args)} in {cwd or self.tree} failed: '
                                 f'{proc.stderr}')
        return proc.stdout.strip()

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


# tools/testing/kunit/kunit.py of the fake package for the tests that run:
# "builds" in a blink and "execs" by starting a long sleep as its QEMU and
# waiting on it; like the real kunit.py it swallows SIGINT and exits
# normally.
FAKE_KUNIT_PY = r'''
import os
import shutil
import subprocess
import sys

cmd = sys.argv[1]
bdir = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--build_dir=')][0]
kunitconfig = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--kunitconfig=')][0]
if cmd == 'build' and os.environ.get('FAKE_BUILD') == 'fail':
    sys.exit(1)
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


# The kernel tree whose kunit_parser the tests that parse KTAP need.
TREE = os.environ.get('SCHED_TINIFY_TREE', '')
needs_tree = unittest.skipUnless(
    os.path.isfile(os.path.join(TREE, 'tools', 'testing', 'kunit', 'kunit_parser.py')),
    f'no kernel tree at {TREE or "$SCHED_TINIFY_TREE"}: run scripts/matrix.sh --prepare-only '
    '(scripts/test.sh does)')

