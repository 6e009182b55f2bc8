# SPDX-License-Identifier: GPL-2.0
"""The peer check: what a user of a tiny arm kernel sees when asking for each scheduling policy, as
chrt asks.

A tinyconfig arm kernel (plus a console, an initramfs, ELF and #! binaries, VFP, /proc) boots under
QEMU with a small init (peer/init, a script for Debian's static busybox, which has no chrt applet)
that runs peer/sched-setattr (built with the tree's nolibc): chrt's requests for SCHED_OTHER,
BATCH, IDLE, FIFO, RR and DEADLINE, and each policy's priority range. Its "peer: " lines must be
those of the expected file of what tinyconfig keeps at the step (peer/rt-dl, both classes; rt, the
deadline class out; none, neither; none-nosys, neither and no sched_setattr()); its "info: " lines
(tasks and free memory of the booted kernel) are kept.
"""

import os
import shutil
import subprocess
import tempfile
from typing import Dict, List

from . import config, run, sizes

# The tiny arm kernel of sched_tinify/sizes.py, and what the init needs.
OPTIONS = 'BLK_DEV_INITRD BINFMT_ELF BINFMT_SCRIPT VFP VFPv3 PROC_FS'.split()


def inputs(sha: str) -> Dict[str, str]:
    """The step, the files of peer/, this module and busybox."""
    files = sorted(os.listdir(os.path.join(config.REPO, 'peer')))
    return {'sha': sha, 'peer': ' '.join(config.file_digest(f'peer/{n}') for n in files),
            'code': ' '.join(config.file_digest(f'sched_tinify/{n}.py') for n in ('peer', 'sizes')),
            'compiler': config.first_line(config.arch('arm')['compiler'], '--version'),
            'qemu': config.first_line('qemu-system-arm', '--version')}


def busybox(work: run.Work) -> str:
    """Debian's static armhf busybox, fetched once into work/peer/ (armhf is added to dpkg's
    architectures for apt-get download; nothing is installed)."""
    path = os.path.join(work.work, 'peer', 'busybox')
    if os.path.exists(path):
        return path
    if os.geteuid():
        raise run.HarnessError(f'no {path} and not root: run once as root to fetch '
                               'busybox-static:armhf')
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, 'log')
        # An index that fails to update (a mirror syncing) need not stop
        # the download; a failed download does.
        run.command(['sh', '-c', 'dpkg --print-foreign-architectures | grep -qx armhf || '
                     'dpkg --add-architecture armhf; apt-get -q update'], log, cwd=tmp)
        if run.command(['apt-get', '-q', 'download', 'busybox-static:armhf'], log, cwd=tmp,
                       append=True):
            raise run.HarnessError(f'apt-get download busybox-static:armhf failed: '
                                   f'{config.read(log, "replace")[-300:]}')
        deb = [n for n in os.listdir(tmp) if n.endswith('.deb')][0]
        subprocess.run(['dpkg-deb', '-x', os.path.join(tmp, deb), os.path.join(tmp, 'x')],
                       check=True)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copy(os.path.join(tmp, 'x', 'bin', 'busybox'), path)
    return path


def run_peer(work: run.Work, step: str, sha: str) -> dict:
    """Build, boot and record the peer check at @step: results/PKG/peer/STEP/result.json."""
    out = os.path.join(work.results, 'peer', step)
    key = config.key(inputs(sha))
    res = run.Result(out, {'target': 'peer', 'step': step, 'sha': sha, 'inputs': inputs(sha),
                           'key': key, 'complete': False})
    try:
        bb = busybox(work)
        run.checkout(work, sha)
        bdir = os.path.join(work.work, work.pkg, 'build', 'peer-arm')
        os.makedirs(bdir, exist_ok=True)
        log = os.path.join(out, 'build.log')
        config.write(f'{bdir}/initramfs.list', 'dir /bin 755 0 0\ndir /dev 755 0 0\n'
                     'dir /proc 755 0 0\nnod /dev/console 600 0 0 c 5 1\n'
                     f'file /init {config.REPO}/peer/init 755 0 0\n'
                     f'file /bin/busybox {bb} 755 0 0\n'
                     f'file /bin/sched-setattr {bdir}/sched-setattr 755 0 0\n')
        # The uapi headers first (for sched-setattr), the image after it.
        missing = sizes.tinyconfig(work, 'arm', bdir, log, OPTIONS, targets=('headers',),
                                   extra=(('INITRAMFS_SOURCE', f'{bdir}/initramfs.list'),))
        if missing:
            raise run.HarnessError(f'not in .config: {" ".join(missing)}')
        if run.command(run.nolibc(config.arch('arm')['compiler'], work.tree, bdir,
                                  'peer/sched-setattr.c', f'{bdir}/sched-setattr'),
                       log, append=True):
            raise run.HarnessError(f'cannot build peer/sched-setattr.c; log: {log}')
        sizes.tinyconfig(work, 'arm', bdir, log, OPTIONS, targets=('zImage',),
                         extra=(('INITRAMFS_SOURCE', f'{bdir}/initramfs.list'),))
        rc = sizes.boot('arm', bdir, os.path.join(out, 'console.log'), '128M')
        lines = config.read(os.path.join(out, 'console.log'), 'replace').splitlines()
        res.save(qemu_rc=rc, peer=[x for x in lines if x.startswith('peer: ')],
                 info=[x for x in lines if x.startswith('info: ')], complete=True)
    except run.Stopped as e:
        res.save(interrupted=str(e))
        raise
    except (run.HarnessError, OSError, subprocess.CalledProcessError) as e:
        res.save(harness_error=str(e), complete=True)
    return res.data


def expected_name(work: run.Work, sha: str) -> str:
    """The expected file's name: the classes (and calls) tinyconfig keeps at the step @sha,
    where each of their options is off (what the kernel built has is what is checked)."""
    def has(symbol):
        return symbol not in run.options(work.tree, sha)
    if not has('SCHED_CLASS_RT'):
        return 'none' if has('SCHED_ATTR_SYSCALLS') else 'none-nosys'
    return 'rt-dl' if has('SCHED_CLASS_DL') else 'rt'


def judge(work: run.Work, step: str, sha: str) -> List[str]:
    """What is wrong with the peer check at @step (empty: green)."""
    res = run.load_json(os.path.join(work.results, 'peer', step, 'result.json'))
    why = run.stale(res, config.key(inputs(sha)))
    if why:
        return [why]
    if res['qemu_rc'] or 'peer: done' not in res['peer']:
        return [f'QEMU exited {res["qemu_rc"]} before the init was done']
    name = expected_name(work, sha)
    want = [line for line in config.read(os.path.join(config.REPO, 'peer', f'{name}.expected'))
            .splitlines() if not line.startswith('#')]
    return [f'differs from peer/{name}.expected: -{a!r} +{b!r}'
            for a, b in zip(want + [''] * len(res['peer']), res['peer'] + [''] * len(want))
            if a != b]
