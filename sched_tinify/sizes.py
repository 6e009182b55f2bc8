# SPDX-License-Identifier: GPL-2.0
"""What the series does to a tiny kernel, the figure Pitre's 2017 series was judged by
(scripts/size-report.sh; docs/sizes.rst says what is measured and how to read it). measure() builds
tinyconfig plus what a small board needs to boot and print (OPTIONS), KUnit off, at a step in a
variant, and keeps in RESULTS/PKG/size/ARCH/VARIANT/STEP/: size, structs (task_struct and rq),
memory (the "Memory:" boot line in QEMU with 64 MB), vmlinux, config, build.log. render() makes the
table and the bloat-o-meter totals. tinyconfig() and boot() serve the peer check too.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional, Tuple

from . import config, parse, run

BASE_VARIANT = 'tiny'
OPTIONS = {'arm': 'ARCH_MULTI_V7 ARCH_VIRT MMU PRINTK TTY SERIAL_AMBA_PL011 '
                  'SERIAL_AMBA_PL011_CONSOLE'.split(),
           'x86_64': 'PRINTK TTY SERIAL_8250 SERIAL_8250_CONSOLE'.split()}
IMAGE = {'arm': 'arch/arm/boot/zImage', 'x86_64': 'arch/x86/boot/bzImage'}
QEMU = {'arm': [config.QEMU['arm'], '-M', 'virt'], 'x86_64': [config.QEMU['x86_64']]}


def read_table(path: str, width: int) -> dict:
    """'NAME N...' lines of @width numbers: {NAME: (N...)} (one: N)."""
    rows = [line.split() for line in config.read(path).splitlines()]
    return {r[0]: tuple(int(x) for x in r[1:]) if width > 1 else int(r[1])
            for r in rows if len(r) == width + 1}


def change(new: int, old: int) -> str:
    """'-8041 (-25.0%)' from @old to @new, or 'n/a' when @old is 0."""
    return f'{new - old:+d} ({100.0 * (new - old) / old:+.1f}%)' if old else 'n/a'


def variants_of(arch_dir: str) -> List[str]:
    """The variants of an architecture, the baseline's first."""
    return sorted(os.listdir(arch_dir), key=lambda v: (v != BASE_VARIANT, v))


def measurement(arch_dir: str, variant: str, step: str) -> Optional[dict]:
    """One built variant at one step, or None (not built, with why)."""
    d = os.path.join(arch_dir, variant, step)
    if os.path.exists(os.path.join(d, 'skipped')):
        return {'skipped': config.read(os.path.join(d, 'skipped')).strip()}
    if not os.path.exists(os.path.join(d, 'size')):
        return None
    memory = config.read(os.path.join(d, 'memory')).strip() if os.path.exists(
        os.path.join(d, 'memory')) else ''
    return {'sizes': read_table(os.path.join(d, 'size'), 4),
            'structs': read_table(os.path.join(d, 'structs'), 1),
            'vmlinux': os.path.join(d, 'vmlinux'), 'memory': memory}


def available(memory: str) -> Optional[int]:
    """The available kilobytes of a "Memory: 52336K/65536K available (...)" boot line, or None."""
    m = re.match(r'Memory: (\d+)K/\d+K available', memory)
    return int(m.group(1)) if m else None


def arch_table(arch: str, arch_dir: str, steps: List[str]) -> List[str]:
    """The Markdown table of one architecture."""
    base = measurement(arch_dir, BASE_VARIANT, steps[0])
    if not base or 'sizes' not in base:
        return [f'## {arch}', '', f'No {BASE_VARIANT} build at {steps[0]}: no table.', '']
    lines = [f'## {arch}', '',
             '| variant | step | kernel/sched text | data | bss | dec | change | '
             'vmlinux dec | change | task_struct | rq | available (KB, of 64 MB) |',
             '|---|---|---|---|---|---|---|---|---|---|---|---|']
    b_sched = base['sizes']['kernel/sched/built-in.a']
    b_vm = base['sizes']['vmlinux']
    b_mem = available(base['memory'])
    for variant in variants_of(arch_dir):
        for step in steps:
            m = measurement(arch_dir, variant, step)
            if m is None:
                continue
            if 'skipped' in m:
                lines.append(f'| {variant} | {step} | {m["skipped"]} ||||||||||')
                continue
            sched = m['sizes']['kernel/sched/built-in.a']
            vm = m['sizes']['vmlinux']
            first = variant == BASE_VARIANT and step == steps[0]
            mem = available(m['memory'])
            kb = '?' if mem is None else str(mem) if first or b_mem is None else \
                f'{mem} ({mem - b_mem:+d})'
            lines.append(
                f'| {variant} | {step} | {sched[0]} | {sched[1]} | {sched[2]} | {sched[3]} | '
                f'{"" if first else change(sched[3], b_sched[3])} | {vm[3]} | '
                f'{"" if first else change(vm[3], b_vm[3])} | '
                f'{m["structs"].get("task_struct", "?")} | {m["structs"].get("rq", "?")} | '
                f'{kb} |')
    lines.append('')
    objects = sorted(n for n in base['sizes']
                     if n.startswith('kernel/sched/') and n != 'kernel/sched/built-in.a')
    if objects:
        lines += [f'Objects of kernel/sched at {steps[0]} ({BASE_VARIANT}), text + data + bss:', '']
        lines += [f'- `{n}`: {base["sizes"][n][3]}' for n in objects]
        lines.append('')
    return lines


def bloat(tree: str, arch: str, old: str, new: str, top: int = 20) -> List[str]:
    """The head of the tree's bloat-o-meter, or why there is none.

    bloat-o-meter reads three fields from every line of nm, and an arm vmlinux can have a symbol
    without a name: it runs the arch's nm through a wrapper that drops such lines."""
    tool = os.path.join(tree, 'scripts', 'bloat-o-meter')
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, cross := config.arch(arch)['cross_compile'])
        wrapper = prefix + 'nm'
        with open(wrapper, 'w', encoding='utf-8') as f:
            f.write('#!/bin/sh\n'
                    '# Drop the lines of nameless symbols: bloat-o-meter wants 3 fields.\n'
                    f'{cross}nm "$@" | awk \'NF == 3\'\n')
        os.chmod(wrapper, 0o755)
        try:
            out = subprocess.run([sys.executable, tool, '-p', prefix, old, new],
                                 check=True, capture_output=True, text=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            return [f'(bloat-o-meter failed: {e})']
    return out.splitlines()[:top]


def render(results: str, tree: str, steps: List[str]) -> str:
    lines = ['# Size of a tiny kernel, without test suites', '',
             'scripts/size-report.sh: tinyconfig plus what a small board needs '
             '(arm: ARCH_MULTI_V7, ARCH_VIRT, MMU, PRINTK, TTY, PL011 console; '
             'x86_64: PRINTK, TTY, 8250 console), KUnit off. "change" is from the '
             f'{BASE_VARIANT} variant at {steps[0]}; sizes in bytes, dec = text + data + bss.',
             '']
    for arch in sorted(os.listdir(results)):
        arch_dir = os.path.join(results, arch)
        if not os.path.isdir(arch_dir):
            continue
        lines += arch_table(arch, arch_dir, steps)
        base = measurement(arch_dir, BASE_VARIANT, steps[0])
        if not base or 'vmlinux' not in base:
            continue
        for variant in variants_of(arch_dir):
            last = measurement(arch_dir, variant, steps[-1])
            if not last or 'vmlinux' not in last or (variant == BASE_VARIANT and
                                                     len(steps) == 1):
                continue
            lines += [f'bloat-o-meter, {arch}: {BASE_VARIANT} {steps[0]} -> '
                      f'{variant} {steps[-1]} (top lines):', '', '```']
            lines += bloat(tree, arch, base['vmlinux'], last['vmlinux'])
            lines += ['```', '']
    return '\n'.join(lines)


def tinyconfig(work: run.Work, arch: str, bdir: str, log: str, on: List[str],
               off: List[str] = (), targets: Tuple[str, ...] = ('vmlinux',),
               extra: Tuple[Tuple[str, str], ...] = ()) -> Optional[List[str]]:
    """Build the tiny configuration of @arch in @bdir with the options @on and @off set (and the
    string options @extra) and make @targets; the options asked for that did not reach .config
    (then nothing is built), or None when all did."""
    os.makedirs(bdir, exist_ok=True)
    cross = config.arch(arch)['cross_compile']
    cc = f'ccache {cross}gcc' if shutil.which('ccache') else f'{cross}gcc'
    env = dict(os.environ, CCACHE_BASEDIR=os.path.join(work.work, work.pkg))
    make = ['make', '-C', work.tree, f'O={bdir}', f'ARCH={arch}',
            f'CROSS_COMPILE={cross}', f'CC={cc}', f'-j{os.cpu_count()}']
    cfg = [f'{work.tree}/scripts/config', '--file', f'{bdir}/.config']
    cfg += [x for o in OPTIONS[arch] + list(on) for x in ('-e', o)] + [x for o in off for x in (
        '-d', o)] + [x for key, value in extra for x in ('--set-str', key, value)]
    for i, argv in enumerate([make + ['tinyconfig'], cfg, make + ['olddefconfig']]):
        if run.command(argv, log, work.tree, env, append=i > 0):
            raise run.HarnessError(f'{argv[-1]} failed; log: {log}')
    kconfig = parse.kconfig(work.tree, f'{bdir}/.config')
    if missing := [f'CONFIG_{o}={v}' for v, opts in (('y', on), ('n', off)) for o in opts
                   if kconfig.get(o) != v]:
        return missing
    if kconfig.get('KUNIT') == 'y':
        raise run.HarnessError('KUnit is on: sizes are measured without test suites')
    for target in targets:
        if run.command(make + [target], log, work.tree, env, append=True):
            raise run.HarnessError(f'make {target} failed; log: {log}')
    return None


def boot(arch: str, bdir: str, log: str, memory: str, append: str = 'panic=-1') -> int:
    """Boot the built image in QEMU (120 s at most); its exit status."""
    return run.command(['timeout', '120', *QEMU[arch], '-m', memory, '-nographic',
                        '-no-reboot', '-kernel', f'{bdir}/{IMAGE[arch]}', '-append',
                        f'console={config.arch(arch)["console"]} {append}'], log)


def struct_sizes(bdir: str, tree: str) -> Dict[str, int]:
    """sizeof(struct task_struct) and sizeof(struct rq), compiled as kbuild compiled
    kernel/sched/build_policy.o (its command's words; no shell), with its includes up to sched.h."""
    cmd = re.search(r'^(?:saved)?cmd_kernel/sched/build_policy\.o := (.*)$',
                    config.read(f'{bdir}/kernel/sched/.build_policy.o.cmd'), re.M).group(1)
    head = config.read(f'{tree}/kernel/sched/build_policy.c').split('#include "sched.h"')[0]
    with open(f'{bdir}/st-sizes.c', 'w', encoding='utf-8') as f:
        f.write(f'{head}#include "{tree}/kernel/sched/sched.h"\n'
                'const unsigned long st_task_struct = sizeof(struct task_struct);\n'
                'const unsigned long st_rq = sizeof(struct rq);\n')
    argv = shlex.split(cmd.split(' -c -o kernel/sched/build_policy.o ')[0].replace(
        '-Wp,-MMD,kernel/sched/.build_policy.o.d', ''))
    subprocess.run(argv + ['-S', '-o', 'st-sizes.s', 'st-sizes.c'], cwd=bdir, check=True,
                   capture_output=True)
    asm = config.read(f'{bdir}/st-sizes.s')
    return {name: int(re.search(rf'^st_{name}:\s*\n\s*\.(?:long|quad|word|4byte|8byte)\s+'
                                r'(\d+)', asm, re.M).group(1)) for name in ('task_struct', 'rq')}


def measure(work: run.Work, arch: str, variant: str, on: List[str], off: List[str],
            step: str, sha: str) -> str:
    """Build, measure and boot the tiny kernel of @arch in @variant at
    @step; a line on what it found."""
    out = os.path.join(work.results, 'size', arch, variant, step)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    bdir = os.path.join(work.work, work.pkg, 'build', f'size-{arch}-{variant}')
    run.checkout(work, sha)
    log = os.path.join(out, 'build.log')
    missing = tinyconfig(work, arch, bdir, log, on, off, ('vmlinux', IMAGE[arch].split('/')[-1]))
    if missing:
        config.write(os.path.join(out, 'skipped'),
                     f'not built: {" ".join(missing)} not in .config at {step}\n')
        return f'not built ({" ".join(missing)} not in .config)'
    shutil.copy(f'{bdir}/.config', f'{out}/config')
    shutil.copy(f'{bdir}/vmlinux', f'{out}/vmlinux')
    objects = ['vmlinux', 'kernel/sched/built-in.a'] + sorted(
        f'kernel/sched/{n}' for n in os.listdir(f'{bdir}/kernel/sched') if n.endswith('.o'))
    cross = config.arch(arch)['cross_compile']
    config.write(f'{out}/size', ''.join(
        f'{obj} {" ".join(map(str, run.size(cross, f"{bdir}/{obj}")))}\n' for obj in objects))
    config.write(f'{out}/structs',
                 ''.join(f'{k} {v}\n' for k, v in struct_sizes(bdir, work.tree).items()))
    boot(arch, bdir, f'{out}/boot.log', '64M')
    with open(f'{out}/boot.log', encoding='utf-8', errors='replace') as f:
        line = re.search(r'Memory: .*', f.read())
    if not line:
        raise run.HarnessError(f'no "Memory:" line when booted; log: {out}/boot.log')
    config.write(f'{out}/memory', line.group(0).strip() + '\n')
    return f'kernel/sched dec {read_table(f"{out}/size", 4)["kernel/sched/built-in.a"][3]}'

