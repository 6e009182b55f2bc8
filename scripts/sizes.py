#!/usr/bin/env python3
"""The size table of scripts/size-report.sh.

Reads RESULTS/ARCH/VARIANT/STEP/{size,structs,skipped,vmlinux} as
size-report.sh lays them out and prints report.md: per architecture, the
text, data, bss and dec of kernel/sched/built-in.a and of vmlinux, and
sizeof(struct task_struct) and sizeof(struct rq), for every variant at
every step, each with its change from the first step's "tiny" variant
(the baseline), then the tree's scripts/bloat-o-meter from that baseline
to the last step of every variant. Standard library only.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional, Tuple

BASE_VARIANT = 'tiny'
CROSS = {'arm': 'arm-linux-gnueabihf-', 'x86_64': ''}
Sizes = Dict[str, Tuple[int, int, int, int]]


def read_sizes(path: str) -> Sizes:
    """'NAME text data bss dec' lines."""
    sizes = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            parts = line.split()
            if len(parts) == 5:
                sizes[parts[0]] = tuple(int(x) for x in parts[1:])
    return sizes


def read_structs(path: str) -> Dict[str, int]:
    """'NAME bytes' lines."""
    structs = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                structs[parts[0]] = int(parts[1])
    return structs


def change(new: int, old: int) -> str:
    """'-8041 (-25.0%)', or '' for the baseline itself."""
    if old == 0:
        return 'n/a'
    delta = new - old
    return f'{delta:+d} ({100.0 * delta / old:+.1f}%)'


def variants_of(arch_dir: str) -> List[str]:
    """The variants of an architecture, the baseline's first."""
    names = sorted(os.listdir(arch_dir))
    return sorted(names, key=lambda v: (v != BASE_VARIANT, v))


def measurement(arch_dir: str, variant: str, step: str) -> Optional[dict]:
    """One built variant at one step, or None (not built, with why)."""
    d = os.path.join(arch_dir, variant, step)
    if os.path.exists(os.path.join(d, 'skipped')):
        with open(os.path.join(d, 'skipped'), encoding='utf-8') as f:
            return {'skipped': f.read().strip()}
    if not os.path.exists(os.path.join(d, 'size')):
        return None
    memory = ''
    if os.path.exists(os.path.join(d, 'memory')):
        with open(os.path.join(d, 'memory'), encoding='utf-8') as f:
            memory = f.read().strip()
    return {'sizes': read_sizes(os.path.join(d, 'size')),
            'structs': read_structs(os.path.join(d, 'structs')),
            'vmlinux': os.path.join(d, 'vmlinux'), 'memory': memory}


def available(memory: str) -> Optional[int]:
    """The available kilobytes of a "Memory: 52336K/65536K available (...)"
    boot line, or None."""
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
            if mem is None:
                kb = '?'
            elif first or b_mem is None:
                kb = str(mem)
            else:
                kb = f'{mem} ({mem - b_mem:+d})'
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

    bloat-o-meter reads three fields from every line of nm, and an arm
    vmlinux can have a symbol without a name: it runs the arch's nm through
    a wrapper that drops such lines.
    """
    tool = os.path.join(tree, 'scripts', 'bloat-o-meter')
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, CROSS.get(arch, ''))
        wrapper = prefix + 'nm'
        with open(wrapper, 'w', encoding='utf-8') as f:
            f.write('#!/bin/sh\n'
                    '# Drop the lines of nameless symbols: bloat-o-meter wants 3 fields.\n'
                    f'{CROSS.get(arch, "")}nm "$@" | awk \'NF == 3\'\n')
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


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--results', required=True, help='RESULTS/PKG/size')
    ap.add_argument('--tree', required=True, help='kernel tree (scripts/bloat-o-meter)')
    ap.add_argument('--steps', required=True, help='comma-separated, baseline first')
    args = ap.parse_args(argv)
    print(render(args.results, args.tree, args.steps.split(',')))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
