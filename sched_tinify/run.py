# SPDX-License-Identifier: GPL-2.0
"""Build and boot one target at one step: run() writes one result.json. How a run stops (command(),
Deferred) and one run at a time (Work.lock): docs/harness.rst.
"""

import contextlib
import dataclasses
import fcntl
import functools
import glob
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Dict, List, Optional

from . import config, parse

LOCKED = 75
# The locks this process holds: {path: descriptor}, kept open until it exits.
HELD: Dict[str, int] = {}
NOT_RUN, STALE, INCOMPLETE, HARNESS = 'not run', 'stale', 'incomplete', 'harness failure'
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
# The test command's deadline (signal.alarm) stops what runs the same way.
DEADLINE = signal.SIGALRM
# Seconds a stopped command's group has between SIGTERM and SIGKILL.
TERM_WAIT = 15


class Stopped(Exception):
    """A signal asked the run to stop."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class HarnessError(Exception):
    """The harness could not build, run or judge (exit status 2)."""


def on_signal(signum, _frame):
    raise Stopped(signum)


def catch_signals() -> None:
    """Stop on each of SIGNALS; one ignored at the start stays ignored (nohup's SIGHUP)."""
    for s in SIGNALS + (DEADLINE,):
        if signal.getsignal(s) != signal.SIG_IGN:
            signal.signal(s, on_signal)


@dataclass
class Work:
    """Where things are: the work folder, the tree, builds, results, of one kernel."""
    pkg: str
    work: str
    results: str
    steps_file: str = ''
    series: str = ''
    kernel: Optional[config.Kernel] = None

    @classmethod
    def from_env(cls, kernel: config.Kernel, env=os.environ) -> 'Work':
        pkg = kernel.package
        work = os.path.realpath(env.get('SCHED_TINIFY_WORK', os.path.join(config.REPO, 'work')))
        if re.search(r'[\s:]', work):
            raise config.ConfigError(f'the work folder {work} has a space or a colon: kbuild '
                                     'cannot build there (set SCHED_TINIFY_WORK)')
        results = os.path.realpath(env.get('SCHED_TINIFY_RESULTS',
                                           os.path.join(config.REPO, 'results')))
        steps = env.get('SCHED_TINIFY_STEPS_FILE', os.path.join(work, pkg, 'steps'))
        # SCHED_TINIFY_SERIES: another series, to try a patch without touching patches/.
        series = env.get('SCHED_TINIFY_SERIES', os.path.join(config.REPO, kernel.patches))
        return cls(pkg, work, os.path.join(results, pkg), os.path.realpath(steps),
                   os.path.realpath(series), kernel)

    @property
    def tree(self) -> str:
        return os.path.join(self.work, self.pkg, 'linux')

    def build_dir(self, target: config.Target) -> str:
        return os.path.join(self.work, self.pkg, 'build', target.name)

    def sub(self, *parts: str) -> 'Work':
        """This work folder, with its results under @parts of these."""
        return dataclasses.replace(self, results=os.path.join(self.results, *parts))

    def out(self, step: str, name: str) -> str:
        return os.path.join(self.results, step, name)

    def lock(self, command: str) -> None:
        """One run at a time (see the module's comment): the descriptor is
        kept open until this process exits (a second lock by it is a no-op)."""
        path = os.path.join(self.work, self.pkg, 'lock')
        if path in HELD:
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = config.read(path).strip() or 'a run that is still starting'
            pid = re.match(r'pid (\d+),', holder)
            holder += f'; stop it with kill {pid.group(1)}' if pid else ''
            print(f'error: another run holds {path}: {holder}. It checks steps out in '
                  f'{self.tree}: wait for it to end.', file=sys.stderr)
            sys.exit(LOCKED)
        os.ftruncate(fd, 0)
        os.write(fd, f'pid {os.getpid()}, started {time.strftime("%F %T UTC", time.gmtime())}, '
                     f'command: {command}\n'.encode())
        HELD[path] = fd


def command(argv: List[str], log: Optional[str], cwd: Optional[str] = None,
            env: Optional[Dict[str, str]] = None, append: bool = False) -> int:
    """Run argv in a group of its own, output to @log (None: ours); its exit status. Stopped by a
    signal, its group gets SIGTERM, and SIGKILL TERM_WAIT seconds later, before Stopped goes on."""
    with open(log, 'a' if append else 'w', encoding='utf-8') if log else \
            contextlib.nullcontext() as out:
        child = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                 stderr=subprocess.STDOUT if out else None, start_new_session=True)
        try:
            return child.wait()
        except BaseException:
            with Deferred():
                stop_group(child)
            raise


def stop_group(child: subprocess.Popen) -> None:
    """SIGTERM to @child's process group, and SIGKILL to what is left of
    it TERM_WAIT seconds later (the leader may be gone, the rest not)."""
    try:
        os.killpg(child.pid, signal.SIGTERM)
        for _ in range(TERM_WAIT * 10):
            child.poll()
            os.killpg(child.pid, 0)
            time.sleep(0.1)
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    child.wait()


class Deferred:
    """Signals (and the deadline) wait while this runs: what must not be
    cut off half-way (a checkout, laying an overlay or taking it off)."""

    def __enter__(self):
        self.old = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS + (DEADLINE,))

    def __exit__(self, *exc):
        signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


def git(tree: str, *argv: str, check: bool = True, **env: str) -> subprocess.CompletedProcess:
    """git in @tree (with @env), never in a repository above it; signals wait for it."""
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(tree), **env)
    with Deferred():
        proc = subprocess.run(['git', '-C', tree, *argv], env=env, capture_output=True,
                              text=True, check=False, start_new_session=True)
    if check and proc.returncode:
        raise HarnessError(f'git {" ".join(argv)} failed in {tree}: {proc.stderr.strip()}')
    return proc


def take_off(work: Work) -> None:
    """Take off the overlay a run killed outright left on the tree, by its note (apply())."""
    note = work.tree + '.overlay'
    if os.path.exists(note) and not os.path.isdir(work.tree):
        config.remove(note)  # its tree is gone (deleted, or moved aside by tree.unpack())
    elif os.path.exists(note):
        try:
            name, paths = json.loads(config.read(note))
            if not (isinstance(name, str) and isinstance(paths, list) and paths and all(
                    isinstance(p, str) and os.path.normpath(p) == p and not p.startswith(('.', '/'))
                    and not os.path.isdir(os.path.join(work.tree, p)) for p in paths)):
                raise ValueError(f'not a name and files of the tree: {name!r}, {paths!r}')
        except (ValueError, TypeError) as e:
            raise HarnessError(f'{note}: unreadable ({e}); check the tree, then delete it') from e
        print(f'taking off {name}, which a killed run left on the tree', flush=True)
        if not Overlay(name, dict.fromkeys(paths, '')).remove(work.tree):
            raise HarnessError(f'{name} is still on {work.tree}: see git status there ({note})')


def checkout(work: Work, sha: str, tests: bool = True) -> None:
    """Check @sha out in the tree, which must be clean, then check that the tests there are
    kunit/'s bytes (unless @tests is false: the upstream-form tests' commit). Only changed files
    are touched, so build folders rebuild incrementally."""
    # Debian's .gitignore ignores every new file: those must show too.
    if git(work.tree, 'status', '--porcelain', '--ignored=matching', '-uall').stdout:
        raise HarnessError(f'{work.tree} has local changes or new files: refusing to build '
                           f'(git -C {work.tree} status --ignored)')
    if git(work.tree, 'rev-parse', 'HEAD').stdout.strip() != sha:
        git(work.tree, 'checkout', '-q', '--detach', sha)
    if not tests:
        return
    for rel in config.test_files():
        with open(os.path.join(config.REPO, 'kunit', rel), 'rb') as a, \
                open(os.path.join(work.tree, rel), 'rb') as b:
            if a.read() != b.read():
                raise HarnessError(f'{rel} in the tree differs from kunit/{rel} at {sha}')


@functools.lru_cache(maxsize=None)
def options(tree: str, sha: str) -> frozenset:
    """The Kconfig options settable at @sha (a prompt after "config"; not Kconfig.kunit's)."""
    proc = git(tree, 'grep', '-h', '-A1', '-E', '^(menu)?config [A-Za-z0-9_]+$', sha, '--',
               ':(glob)**/Kconfig*', ':(exclude)kernel/sched/Kconfig.kunit', check=False)
    if proc.returncode > 1:
        raise HarnessError(f'git grep (exit {proc.returncode}) at {sha}: {proc.stderr.strip()}')
    lines = proc.stdout.splitlines()
    return frozenset(a.split()[-1] for a, b in zip(lines, lines[1:]) if re.match(
        r'(menu)?config \w+$', a) and re.match(r'\s+(bool|tristate|int|hex|string|prompt)\s+"', b))


def compiler(target: config.Target, work: Work):
    """(CC for kbuild, environment): through ccache when it is installed,
    with paths relative to the package folder so that clones share it."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE='1')
    if shutil.which('ccache'):
        env['CCACHE_BASEDIR'] = os.path.join(work.work, work.pkg)
        return f'ccache {target.compiler}', env
    return target.compiler, env


def kunit_args(target: config.Target, bdir: str, configs: List[str]) -> List[str]:
    args = [f'--arch={target.arch}', f'--build_dir={bdir}']
    args += [f'--kunitconfig={f}' for f in configs]
    return args + ([f'--cross_compile={target.cross_compile}'] if target.cross_compile else [])


def boot_cmd(target: config.Target, bdir: str, out: str, timeout: str, qemu: str) -> List[str]:
    """kunit.py exec of the kernel built in @bdir, its JSON to @out."""
    return [sys.executable, 'tools/testing/kunit/kunit.py', 'exec',
            *kunit_args(target, bdir, fragments(target)), f'--timeout={timeout}',
            f'--json={out}/kunit.json'] + ([f'--qemu_args={qemu}'] if qemu else [])


def fragments(target: config.Target) -> List[str]:
    """The kunitconfig fragments for kunit.py: files of the repository, or
    of the tree for the upstream-form tests."""
    return list(target.kunitconfig) if target.upstream else \
        [os.path.join(config.REPO, f) for f in target.kunitconfig]


def upstream_sha(work: Work) -> str:
    """The commit of the upstream-form tests (sched_tinify/tree.py)."""
    try:
        return config.read(os.path.join(os.path.dirname(work.steps_file), 'upstream-kunit')).strip()
    except OSError as e:
        raise HarnessError('no upstream-form commit: run scripts/matrix.sh --prepare-only '
                           f'({e})') from e


def suites_added(series_dir: str) -> List[str]:
    """The KUnit suites the upstream-form patches (SERIES/kunit/) add."""
    folder = os.path.join(series_dir, 'kunit')
    return [suite for name in (sorted(os.listdir(folder)) if os.path.isdir(folder) else [])
            for suite in re.findall(r'^\+\s*\.name\s*=\s*"([^"]*)",',
                                    config.read(os.path.join(folder, name)), re.M)]


def touched_files(series_dir: str) -> List[str]:
    """The files the patches of the series touch."""
    return sorted({line.split()[2][2:] for name in config.read_series(series_dir)
                   for line in config.read(os.path.join(series_dir, name), 'replace').splitlines()
                   if line.startswith('diff --git a/')})


def size(cross: str, path: str) -> List[int]:
    """text, data, bss, dec of an object, or the total of an archive's (the one size command)."""
    archive = path.endswith('.a')
    proc = subprocess.run([f'{cross}size', *['-t'] * archive, path], capture_output=True,
                          text=True, check=False)
    rows = [r for r in (line.split() for line in proc.stdout.splitlines()[1:])
            if not archive or '(TOTALS)' in r]
    if proc.returncode or not rows:
        raise HarnessError(f'size failed on {path}: {proc.stderr.strip()}')
    return [int(x) for x in rows[-1][:4]]


class Result:
    """result.json of one target at one step, written as the run goes: a run that stops half-way
    leaves complete false (and, for a signal, its name in "interrupted")."""

    def __init__(self, out: str, data: dict):
        self.path = os.path.join(out, 'result.json')
        self.data = data
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        self.save()

    def save(self, **fields) -> None:
        self.data.update(fields)
        config.write(self.path, json.dumps(self.data, indent=1, sort_keys=True))


def load_json(path: str) -> Optional[dict]:
    try:
        return json.loads(config.read(path))
    except (OSError, ValueError):
        return None


def load(work: Work, step: str, name: str) -> Optional[dict]:
    return load_json(os.path.join(work.out(step, name), 'result.json'))


def stale(result: Optional[dict], key: str) -> str:
    """Why @result is not fresh ('' when it is). The one freshness rule: a complete result of the
    current inputs (a harness failure is never kept: it says nothing of the kernel)."""
    if not result:
        return NOT_RUN
    if result.get('key') != key:
        return STALE
    if result.get('complete') is not True:
        return INCOMPLETE
    return f'{HARNESS}: {result["harness_error"]}' if result.get('harness_error') else ''


def inputs_of(target: config.Target, sha: str, sched_only: bool = False,
              env: Optional[Dict[str, str]] = None,
              overlay: Optional['Overlay'] = None) -> Dict[str, str]:
    """The inputs of run() with these arguments: config.inputs(), what a
    build-only configuration builds (a kernel/sched/-only build does not
    stand for a whole one), and the overlay laid on the tree."""
    out = config.inputs(target, sha, env)
    if target.build_only:
        out['scope'] = 'kernel/sched' if sched_only else 'vmlinux'
    if overlay:
        out['overlay'] = overlay.digest
    return out


def kept(work: Work, target: config.Target, step: str, sha: str, **how) -> bool:
    """Is there a fresh result of run(work, target, step, sha, **how)? A whole build stands for
    a kernel/sched/-only one (never replaced by less)."""
    res = load(work, step, target.name)
    return not stale(res, config.key(inputs_of(target, sha, **how))) or bool(
        how.get('sched_only') and not stale(res, config.key(inputs_of(target, sha))))


class Overlay:
    """A change laid on the checked-out tree for one build, and taken off
    again whatever happens (signals wait): a mutant (a sed script and the
    file it edits) or the debug cells' planted bugs."""

    def __init__(self, name: str, edits: Dict[str, str], sed: Optional[str] = None):
        self.name, self.edits, self.sed = name, edits, sed
        self.digest = config.digest(json.dumps([name, edits, config.read(sed) if sed else ''])
                                    .encode())

    @classmethod
    def mutant(cls, path: str, file: str) -> 'Overlay':
        return cls(os.path.basename(path), {file: ''}, path)

    @classmethod
    def planted(cls) -> 'Overlay':
        """scripts/debug-selfcheck.c, #included at the end of kernel/sched/build_policy.c."""
        return cls('planted bugs', {
            'kernel/sched/debug_selfcheck.c': config.read(os.path.join(
                config.REPO, 'scripts', 'debug-selfcheck.c')),
            'kernel/sched/build_policy.c': '\n/* sched-tinify debug self-check, never '
                                           'committed. */\n#include "debug_selfcheck.c"\n'})

    def apply(self, tree: str) -> None:
        with Deferred():  # noted first, for take_off() after a kill
            config.write(tree + '.overlay', json.dumps([self.name, list(self.edits)]))
            self._apply(tree)

    def _apply(self, tree: str) -> None:
        for path, text in self.edits.items():
            full = os.path.join(tree, path)
            if self.sed:
                if not os.path.exists(full):
                    raise HarnessError(f'{self.name}: no {path} at this step')
                subprocess.run(['sed', '-i', '-f', self.sed, full], check=True)
            else:  # appended to a file of the tree; a new file written whole
                with open(full, 'a' if git(tree, 'ls-files', '--', path).stdout else 'w',
                          encoding='utf-8') as f:
                    f.write(text)
        if not git(tree, 'status', '--porcelain').stdout.strip():
            raise HarnessError(f'{self.name} changes nothing at this step: fix its pattern')

    def remove(self, tree: str) -> bool:
        """Its paths (literal) put back whatever happened, a new file even if ignored (Debian's
        .gitignore ignores every new file); its note goes once they are: are they?"""
        with Deferred():
            lit = {'check': False, 'GIT_LITERAL_PATHSPECS': '1'}
            known = git(tree, 'ls-files', '-z', '--', *self.edits, **lit).stdout.split('\0')
            git(tree, 'checkout', '-q', '--', *filter(None, known), **lit)
            git(tree, 'clean', '-q', '-f', '-x', '--', *self.edits, **lit)
            left = git(tree, 'status', '--porcelain', '--ignored=matching', '-uall', '--',
                       *self.edits, **lit)
            if clean := not left.returncode and not left.stdout:
                config.remove(tree + '.overlay')
            return clean


def run(work: Work, target: config.Target, step: str, sha: str, series_dir: str,
        sched_only: bool = False, overlay: Optional[Overlay] = None,
        env: Optional[Dict[str, str]] = None) -> dict:
    """Build @target at @step (commit @sha), with @overlay laid on the tree,
    and, unless it is build-only, boot it; write and return its result.
    @env: the environment the inputs are taken from (KUNIT_TIMEOUT)."""
    inputs = inputs_of(target, sha, sched_only, env, overlay)
    out = work.out(step, target.name)
    res = Result(out, {'target': target.name, 'kind': target.kind, 'step': step, 'sha': sha,
                       'inputs': inputs, 'key': config.key(inputs), 'complete': False})
    try:
        if target.needs and target.needs not in options(work.tree, sha) and target.expected:
            res.save(na=f'no config {target.needs}', complete=True)
            return res.data
        checkout(work, sha, tests=not target.upstream)
        try:
            if overlay:
                overlay.apply(work.tree)
            if target.build_only:
                build_only(work, target, res, out, series_dir, sched_only)
            else:
                build_and_boot(work, target, res, out, overlay)
        finally:
            if overlay:
                overlay.remove(work.tree)
        res.save(complete=True)
    except Stopped as e:
        res.save(interrupted=str(e))
        raise
    except (HarnessError, OSError) as e:
        res.save(harness_error=str(e), complete=True)
    return res.data


def build_and_boot(work: Work, target: config.Target, res: Result, out: str,
                   overlay: Optional[Overlay] = None) -> None:
    bdir = work.build_dir(target)
    os.makedirs(bdir, exist_ok=True)
    cc, env = compiler(target, work)
    args = kunit_args(target, bdir, fragments(target))
    kunit = [sys.executable, 'tools/testing/kunit/kunit.py']
    build = kunit + ['build', *args, f'--jobs={os.cpu_count()}', f'--make_options=CC={cc}']
    build += [f'--make_options={m}' for m in target.make]
    timeout = res.data['inputs']['kunit_timeout']
    qemu = target.qemu_args
    if target.kmemleak:
        qemu = f'{qemu} -initrd {bdir}/kmemleak-initramfs.cpio'.strip()
    boot = boot_cmd(target, bdir, out, timeout, qemu)
    # kunit.py puts its console= and kunit_shutdown= last: after "--" they
    # go to init, which runs once the suites are done.
    boot += [f'--kernel_args=console={target.console} --'] if target.kmemleak else []
    config.write(os.path.join(out, 'cmd'),
                 f'cd {shlex.quote(work.tree)}\n{shlex.join(build)}\n{shlex.join(boot)}\n')
    t0 = time.time()
    config.remove(os.path.join(bdir, 'sched-tinify.key'))  # the kernel is about to change
    rc = command(build, os.path.join(out, 'build.log'), work.tree, env)
    if rc == 0 and target.kmemleak:
        rc = kmemleak_initrd(work, target, bdir, os.path.join(out, 'build.log'))
    t1 = time.time()
    if os.path.exists(os.path.join(bdir, '.config')):
        shutil.copy(os.path.join(bdir, '.config'), os.path.join(out, 'config'))
    res.save(build={'rc': rc, 'seconds': round(t1 - t0), 'cmd': build})
    if rc:
        return
    res.save(sizes={obj: size(target.cross_compile, os.path.join(bdir, obj))
                    for obj in ('vmlinux', 'kernel/sched/built-in.a')})
    # What the folder holds now, for repeat(): the key of this build.
    config.write(os.path.join(bdir, 'sched-tinify.key'),
                 res.data['key'] if not overlay else 'overlay')
    boot_result(target, res, out, bdir, boot, env, work.tree)


def boot_result(target: config.Target, res: Result, out: str, bdir: str, boot: List[str],
                env: Dict[str, str], tree: str) -> None:
    """Boot a built kernel with kunit.py exec and record what it said."""
    log = os.path.join(bdir, 'test.log')
    config.remove(log)
    t0 = time.time()
    rc = command(boot, os.path.join(out, 'exec.log'), tree, env)
    seconds = round(time.time() - t0)
    if os.path.exists(log):
        shutil.copy(log, os.path.join(out, 'test.log'))
    else:
        open(os.path.join(out, 'test.log'), 'w', encoding='utf-8').close()
    timed_out = 'timed out after' in config.read(os.path.join(out, 'exec.log'), 'replace')
    config_smp = parse.kconfig(tree, os.path.join(out, 'config')).get('SMP') == 'y'
    booted = parse.booted_cpus(config.read(os.path.join(out, 'test.log'),
                                           'backslashreplace').splitlines())
    res.save(run={'rc': rc, 'seconds': seconds, 'timed_out': timed_out, 'cmd': boot},
             config_smp=config_smp, booted_cpus=booted)


def variants(target: config.Target, path: str, tree: str = ''):
    """The repeats' variants: (name, CPUs, host loaded): the cell as it is, an SMP cell also with 2
    and 8 CPUs (not above the CONFIG_NR_CPUS of the .config at @path, read with @tree's
    kunit_config; none there: every variant is expected), and the cell as it is with one busy
    loop per host CPU."""
    out = [(f'cpus{target.cpus}', target.cpus, False)]
    nr_cpus = int(parse.kconfig(tree, path).get('NR_CPUS', 1)) if os.path.exists(path) else 8
    out += [(f'cpus{n}', n, False) for n in (2, 8) if target.smp and n <= nr_cpus]
    return out + [(f'cpus{target.cpus}-loaded', target.cpus, True)]


def repeat(work: Work, target: config.Target, step: str, sha: str, series_dir: str,
           count: int) -> None:
    """Boot the cell's kernel of @step @count times in each variant,
    without building (but first build it, when its folder holds another
    one): results/PKG/repeat/CELL/VARIANT/NNN/result.json."""
    bdir = work.build_dir(target)
    key = config.key(inputs_of(target, sha))
    try:
        built = config.read(os.path.join(bdir, 'sched-tinify.key')).strip() == key
    except OSError:
        built = False
    if not built:
        print(f'{target.name}: {bdir} does not hold {step}: building it', flush=True)
        if run(work, target, step, sha, series_dir).get('harness_error'):
            raise HarnessError(f'{target.name} at {step} could not be built and booted')
    checkout(work, sha)
    top = os.path.join(work.results, 'repeat', target.name)
    shutil.rmtree(top, ignore_errors=True)
    _, env = compiler(target, work)
    for name, cpus, loaded in variants(target, os.path.join(bdir, '.config'), work.tree):
        load: List[subprocess.Popen] = []
        try:
            for _ in range((os.cpu_count() or 1) if loaded else 0):
                load.append(subprocess.Popen(['sh', '-c', 'while :; do :; done'],
                                             start_new_session=True))
            for i in range(1, count + 1):
                out = os.path.join(top, name, f'{i:03d}')
                inputs = dict(inputs_of(target, sha), variant=name, count=str(count))
                res = Result(out, {'target': target.name, 'step': step, 'sha': sha,
                                   'inputs': inputs, 'key': config.key(inputs),
                                   'complete': False, 'cpus': cpus, 'loaded': loaded})
                boot = boot_cmd(target, bdir, out, inputs['kunit_timeout'],
                                f'-smp {cpus}' if cpus > 1 else '')
                shutil.copy(os.path.join(bdir, '.config'), os.path.join(out, 'config'))
                try:
                    boot_result(target, res, out, bdir, boot, env, work.tree)
                    res.save(complete=True)
                except Stopped as e:
                    res.save(interrupted=str(e))
                    raise
        finally:
            with Deferred():
                for p in load:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()


def nolibc(compiler: str, tree: str, bdir: str, source: str, out: str) -> List[str]:
    """The command that builds @source (a file of the repository) as a
    static program with @tree's nolibc and the uapi headers in @bdir."""
    return [compiler, '-Os', '-static', '-nostdlib', '-fno-stack-protector', '-I',
            f'{bdir}/usr/include', '-include', f'{tree}/tools/include/nolibc/nolibc.h', '-o',
            out, os.path.join(config.REPO, source), '-lgcc']


def kmemleak_initrd(work: Work, target: config.Target, bdir: str, log: str) -> int:
    """The initramfs whose /init is scripts/kmemleak-init.c, built with
    nolibc and this tree's uapi headers."""
    cross = target.cross_compile
    rc = command(['make', '-C', work.tree, f'O={bdir}', f'ARCH={target.arch}',
                  *([f'CROSS_COMPILE={cross}'] if cross else []), 'headers'], log, append=True)
    rc = rc or command(nolibc(target.compiler, work.tree, bdir, 'scripts/kmemleak-init.c',
                              f'{bdir}/kmemleak-init'), log, append=True)
    if rc:
        return rc
    config.write(f'{bdir}/kmemleak-initramfs.list',
                 f'dir /d 700 0 0\nfile /init {bdir}/kmemleak-init 755 0 0\n')
    with open(f'{bdir}/kmemleak-initramfs.cpio', 'wb') as f:
        return subprocess.run([f'{bdir}/usr/gen_init_cpio', f'{bdir}/kmemleak-initramfs.list'],
                              stdout=f, check=False).returncode


def build_only(work: Work, target: config.Target, res: Result, out: str, series_dir: str,
               sched_only: bool) -> None:
    """A W=1 build of a build-only configuration: the warnings located in kernel/sched/ or in a
    file the series touches (kernel/sched/ only with @sched_only, which builds that folder alone).
    Without the option of "needs", the kunitconfig section after "# needs SYMBOL:" is left out."""
    bdir = work.build_dir(target)
    os.makedirs(bdir, exist_ok=True)
    configs = [os.path.join(config.REPO, f) for f in target.kunitconfig]
    section = ''
    if target.needs:
        text = config.read(configs[0])
        marker = re.search(rf'^# needs {target.needs}:$', text, re.M)
        if not marker:
            raise HarnessError(f'{configs[0]} has no "# needs {target.needs}:" section')
        section = 'used' if target.needs in options(work.tree, res.data['sha']) else 'left out'
        if section == 'left out':
            configs[0] = os.path.join(out, 'kunitconfig')
            config.write(configs[0], text[:marker.start()])
    touched = touched_files(series_dir)
    # Every kernel/sched object and those of the .c files the series
    # touches are compiled at every step, so that their warnings are in
    # this step's log (ccache replays them when nothing changed).
    config.remove(*glob.glob(os.path.join(glob.escape(bdir), 'kernel', 'sched', '*.o')),
                  *[os.path.join(bdir, p[:-2] + '.o') for p in touched if p.endswith('.c')])
    cc, env = compiler(target, work)
    kunit = [sys.executable, 'tools/testing/kunit/kunit.py']
    args = kunit_args(target, bdir, configs)
    if sched_only:
        cmds = [kunit + ['config', *args, f'--make_options=CC={cc}'],
                ['make', f'ARCH={target.arch}', f'O={bdir}', f'--jobs={os.cpu_count()}',
                 f'CC={cc}', 'W=1'] + ([f'CROSS_COMPILE={target.cross_compile}']
                                       if target.cross_compile else []) + ['kernel/sched/']]
    else:
        cmds = [kunit + ['build', *args, f'--jobs={os.cpu_count()}', f'--make_options=CC={cc}',
                         '--make_options=W=1']]
    log = os.path.join(out, 'build.log')
    t0 = time.time()
    rc = 0
    for i, cmd in enumerate(cmds):
        rc = rc or command(cmd, log, work.tree, env, append=i > 0)
    # Every warning: the judge keeps those of the files the series touches
    # now (a series that touches a new file does not make this stale).
    found = parse.warnings(config.read(log, 'replace').splitlines())
    res.save(build={'rc': rc, 'seconds': round(time.time() - t0), 'cmd': cmds},
             scope='kernel/sched' if sched_only else 'vmlinux', needs_section=section,
             warnings=found)
