#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read ci/matrix.json, the one definition of the test matrix.

Usage:
  matrix.py cells [NAME,...]   cell names, one per line (all, or the
                               given ones, checked to exist)
  matrix.py cell NAME FIELD    one field of one cell
  matrix.py tiny [NAME,...]    tiny cell names, one per line (a tiny cell
                               is named like a cell wherever one is taken:
                               cell, inputs cell)
  matrix.py builds [NAME,...]  build-only configuration names, one per line
  matrix.py build NAME FIELD   one field of one build-only configuration
  matrix.py debug [NAME,...]   debug cell names, one per line
  matrix.py debugcell NAME FIELD
                               one field of one debug cell
  matrix.py debugenv NAME      the environment a debug cell's runs get
                               (scripts/debug-cells.sh), as KEY=VALUE lines
  matrix.py patches PKG        the series folder of a source package
  matrix.py version PKG        the package version the series is tested on
  matrix.py inputs cell|build NAME
                               what decides a cell's (or build's) result
                               besides its commit, as key=value lines
  matrix.py github             the cells as a compact JSON list (CI jobs)
  matrix.py rst cells|builds|tiny
                               an rst table of them (docs/harness.rst)
  matrix.py check              validate the file; print nothing

Errors go to stderr with exit status 1.
"""

import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sched_tinify import config  # noqa: E402 pylint: disable=wrong-import-position

MATRIX = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      '..', 'ci', 'matrix.json')

CELL_FIELDS = {
    'name': str, 'arch': str, 'cross_compile': str, 'compiler': str,
    'kunitconfig': str, 'smp': bool, 'cpus': int, 'qemu_args': str,
}

# A tiny cell: a cell for the steps that have a Kconfig option ("needs",
# e.g. SCHED_CLASS_DL), judged against its own expected results ("expected",
# results.txt lines), not against the baseline. Always UP.
TINY_FIELDS = {**CELL_FIELDS, 'needs': str, 'expected': str}

BUILD_FIELDS = {
    'name': str, 'arch': str, 'cross_compile': str, 'compiler': str,
    'kunitconfig': str,
}

# Optional in a build: "needs", a Kconfig option (e.g. SCHED_CLASS_DL) that
# the build's kunitconfig sets in a "# needs SYMBOL:" section, left out at
# the steps that do not have the option (scripts/build-only.sh).
BUILD_OPTIONAL = {'needs': str}

# A debug cell: a cell ("cell") built again with the options of a
# kunitconfig fragment ("kconfig") added (scripts/debug-cells.sh); with
# "kmemleak", booted with the initramfs of scripts/kmemleak-init.c, the
# kernel's console being "console".
DEBUG_FIELDS = {'name': str, 'cell': str, 'kconfig': str, 'console': str, 'kmemleak': bool}
# Optional: "make", kbuild variables (VAR=VALUE, space-separated) for the
# build, e.g. UBSAN_SANITIZE_core.o=y where the architecture has no
# UBSAN_SANITIZE_ALL.
DEBUG_OPTIONAL = {'make': str}
TOP_FIELDS = {'comment', 'trees', 'cells', 'builds_comment', 'builds',
              'tiny_comment', 'tiny', 'debug_comment', 'debug'}

# The QEMU that kunit.py's qemu_configs/<arch>.py starts.
QEMU = {'x86_64': 'qemu-system-x86_64', 'arm': 'qemu-system-arm'}

# Seconds QEMU may run (KUNIT_TIMEOUT) when the environment does not say.
KUNIT_TIMEOUT = '240'


class MatrixError(Exception):
    """The matrix file or a request to it is wrong."""


def check_entry(kind_name, i, entry, fields, names, optional=None):
    """Check one cell or build against its fields (and the optional ones);
    add its name to names."""
    optional = optional or {}
    if not isinstance(entry, dict):
        raise MatrixError(f'matrix: {kind_name} {i} is not an object')
    for key, kind in fields.items():
        if not isinstance(entry.get(key), kind):
            raise MatrixError(
                f'matrix: {kind_name} {i}: field "{key}" must be {kind.__name__}')
    for key, kind in optional.items():
        if key in entry and not (isinstance(entry[key], kind) and entry[key]):
            raise MatrixError(
                f'matrix: {kind_name} {i}: field "{key}" must be a non-empty {kind.__name__}')
    extra = set(entry) - set(fields) - set(optional)
    if extra:
        raise MatrixError(f'matrix: {kind_name} {entry["name"]}: unknown fields {sorted(extra)}')
    if entry['name'] in names:
        raise MatrixError(f'matrix: {entry["name"]} defined twice')
    names.add(entry['name'])


def validate(data):
    """Check the structure of a loaded matrix; raise MatrixError."""
    if not isinstance(data, dict):
        raise MatrixError('matrix: top level must be an object')
    trees = data.get('trees')
    if not isinstance(trees, dict) or not trees:
        raise MatrixError('matrix: "trees" must be a non-empty object')
    for pkg, tree in trees.items():
        if not isinstance(tree, dict) or not isinstance(tree.get('patches'), str):
            raise MatrixError(f'matrix: tree {pkg}: needs a "patches" folder')
        if not isinstance(tree.get('version'), str):
            raise MatrixError(f'matrix: tree {pkg}: needs the "version" it is tested on')
    cells = data.get('cells')
    if not isinstance(cells, list) or not cells:
        raise MatrixError('matrix: "cells" must be a non-empty list')
    names = set()
    for i, cell in enumerate(cells):
        check_entry('cell', i, cell, CELL_FIELDS, names)
        if cell['smp'] != (cell['cpus'] > 1):
            raise MatrixError(f'matrix: cell {cell["name"]}: smp and cpus disagree')
        if cell['smp'] and f'-smp {cell["cpus"]}' not in cell['qemu_args']:
            raise MatrixError(
                f'matrix: cell {cell["name"]}: SMP cell must boot {cell["cpus"]} CPUs')
    builds = data.get('builds', [])
    if not isinstance(builds, list):
        raise MatrixError('matrix: "builds" must be a list')
    for i, build in enumerate(builds):
        check_entry('build', i, build, BUILD_FIELDS, names, BUILD_OPTIONAL)
    tiny = data.get('tiny', [])
    if not isinstance(tiny, list):
        raise MatrixError('matrix: "tiny" must be a list')
    for i, cell in enumerate(tiny):
        check_entry('tiny cell', i, cell, TINY_FIELDS, names)
        if cell['smp'] or cell['cpus'] != 1:
            raise MatrixError(f'matrix: tiny cell {cell["name"]}: must be UP with 1 CPU')
    debug = data.get('debug', [])
    if not isinstance(debug, list):
        raise MatrixError('matrix: "debug" must be a list')
    cell_names = {c['name'] for c in cells}
    for i, entry in enumerate(debug):
        check_entry('debug cell', i, entry, DEBUG_FIELDS, names, DEBUG_OPTIONAL)
        if entry['cell'] not in cell_names:
            raise MatrixError(f'matrix: debug cell {entry["name"]}: no cell {entry["cell"]}')
        if not entry['name'].startswith(entry['cell'] + '-'):
            raise MatrixError(f'matrix: debug cell {entry["name"]}: the name must be '
                              f'{entry["cell"]}-SOMETHING (its build folder)')
    extra = set(data) - TOP_FIELDS
    if extra:
        raise MatrixError(f'matrix: unknown top-level fields {sorted(extra)}')
    return data


def old_form(data):
    """ci/matrix.json (sched_tinify/config.py reads it) in the form of the
    scripts: trees, cells, builds, tiny and debug, each entry as it was
    defined before the targets list (so that results keep their digests)."""
    cells, builds, tiny, debug = [], [], [], []
    for t in config.targets(data, kinds=('cell', 'build', 'tiny', 'debug')):
        entry = {'name': t.name, 'arch': t.arch, 'cross_compile': t.cross_compile,
                 'compiler': t.compiler, 'kunitconfig': t.kunitconfig[0]}
        if t.kind != 'build':
            entry.update(smp=t.smp, cpus=t.cpus, qemu_args=t.qemu_args)
        if t.needs:
            entry['needs'] = t.needs
        if t.kind == 'tiny':
            tiny.append({**entry, 'expected': t.expected})
        elif t.kind == 'debug':
            debug.append({'name': t.name, 'cell': t.same_as, 'kconfig': t.kunitconfig[1],
                          'console': t.console, 'kmemleak': t.kmemleak,
                          **({'make': ' '.join(t.make)} if t.make else {})})
        else:
            (builds if t.kind == 'build' else cells).append(entry)
    return {'trees': {data['package']: {'patches': data['patches'], 'version': data['version']}},
            'cells': cells, 'builds': builds, 'tiny': tiny, 'debug': debug}


def load(path=MATRIX):
    try:
        return validate(old_form(config.load(path)))
    except config.ConfigError as e:
        raise MatrixError(str(e)) from e


def select(data, names=None, kind='cells'):
    """The cells (or builds, or tiny cells) named in a comma-separated list
    (all when empty). Named cells may be tiny cells too."""
    cells = data.get(kind, [])
    if not names:
        return cells
    by_name = {c['name']: c for c in cells}
    if kind == 'cells':
        by_name.update({c['name']: c for c in data.get('tiny', [])})
    wanted = [n for n in names.split(',') if n]
    unknown = [n for n in wanted if n not in by_name]
    if unknown:
        what = {'cells': 'cell', 'builds': 'build', 'tiny': 'tiny cell',
                'debug': 'debug cell'}.get(kind, kind)
        raise MatrixError(f'unknown {what}(s): {", ".join(unknown)} '
                          f'(known: {", ".join(by_name)})')
    return [by_name[n] for n in wanted]


def field(data, name, key, kind='cells'):
    """One field of a cell (or build); an optional field it does not have
    is empty."""
    cell = select(data, name, kind)[0]
    if key not in cell and key in {'builds': BUILD_OPTIONAL, 'debug': DEBUG_OPTIONAL}.get(kind, {}):
        return ''
    if key not in cell:
        raise MatrixError(f'cell {name}: no field {key}')
    value = cell[key]
    if isinstance(value, bool):
        return 'y' if value else 'n'
    return str(value)


# What a debug run sets for scripts/run-cell.sh, and a plain one does not.
DEBUG_ENV = ('SCHED_TINIFY_KCONFIG_ADD', 'SCHED_TINIFY_DEBUG', 'SCHED_TINIFY_MAKE_ADD',
             'SCHED_TINIFY_KMEMLEAK')


def debug_env(entry, root=None):
    """The environment of a debug cell's runs: the options its kconfig
    fragment sets (its CONFIG_X=V lines), its name past the cell's (the
    build folder's suffix), its kbuild variables and, with kmemleak, the
    console. scripts/debug-cells.sh runs with it; report.py computes the
    debug results' current inputs with it."""
    root = root or os.path.join(os.path.dirname(MATRIX), '..')
    path = os.path.join(root, entry['kconfig'])
    try:
        with open(path, encoding='utf-8') as f:
            add = [line.strip() for line in f
                   if re.fullmatch(r'CONFIG_[A-Za-z0-9_]*=[^ ]*', line.strip())]
    except OSError as e:
        raise MatrixError(f'debug cell {entry["name"]}: cannot read {path}: {e}') from e
    if not add:
        raise MatrixError(f'debug cell {entry["name"]}: {path} sets no option')
    return {'SCHED_TINIFY_KCONFIG_ADD': ' '.join(add),
            'SCHED_TINIFY_DEBUG': entry['name'][len(entry['cell']) + 1:],
            'SCHED_TINIFY_MAKE_ADD': entry.get('make', ''),
            'SCHED_TINIFY_KMEMLEAK': entry['console'] if entry['kmemleak'] else ''}


def first_line(argv):
    """First line of a tool's --version, or why there is none."""
    try:
        out = subprocess.run(argv, capture_output=True, text=True, check=False,
                             timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        return f'unavailable ({e.__class__.__name__})'
    return (out.splitlines() or ['unavailable (no output)'])[0].strip()


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def inputs(entry, kind='cells', env=None, root=None):
    """What decides a result besides the step's commit: {key: value}.

    scripts/run-cell.sh and build-only.sh record it in the meta of every
    result, and scripts/report.py calls this again: a result whose inputs
    differ from the current ones is stale.
    """
    env = os.environ if env is None else env
    root = root or os.path.join(os.path.dirname(MATRIX), '..')
    with open(os.path.join(root, entry['kunitconfig']), 'rb') as f:
        kunitconfig = f.read()
    compiler = entry['compiler'].split()
    out = {
        'kunitconfig_sha256': digest(kunitconfig),
        'entry_sha256': digest(json.dumps(entry, sort_keys=True).encode()),
        'kconfig_add': ' '.join(env.get('SCHED_TINIFY_KCONFIG_ADD', '').split()),
        'compiler': first_line(compiler + ['--version']),
    }
    # A debug run's build folder and boot (scripts/run-cell.sh); absent
    # otherwise, so that plain results stay fresh.
    if env.get('SCHED_TINIFY_DEBUG'):
        out['debug'] = env['SCHED_TINIFY_DEBUG']
    if env.get('SCHED_TINIFY_MAKE_ADD'):
        out['make_add'] = ' '.join(env['SCHED_TINIFY_MAKE_ADD'].split())
    if env.get('SCHED_TINIFY_KMEMLEAK'):
        with open(os.path.join(root, 'scripts', 'kmemleak-init.c'), 'rb') as f:
            out['kmemleak'] = f'{env["SCHED_TINIFY_KMEMLEAK"]} {digest(f.read())}'
    if 'expected' in entry:
        with open(os.path.join(root, entry['expected']), 'rb') as f:
            out['expected_sha256'] = digest(f.read())
    if kind == 'cells':
        out['qemu_args'] = entry['qemu_args']
        out['kunit_timeout'] = env.get('KUNIT_TIMEOUT') or KUNIT_TIMEOUT
        out['qemu'] = first_line([QEMU.get(entry['arch'], f'qemu-system-{entry["arch"]}'),
                                  '--version'])
    return out


def peer_inputs(root=None):
    """What decides a peer check's result besides the step's commit: the
    files of peer/ (its init, its request maker, its expected results) and
    scripts/peer-check.sh, as one digest. scripts/peer-check.sh records it
    in its meta; scripts/report.py compares."""
    root = root or os.path.join(os.path.dirname(MATRIX), '..')
    h = hashlib.sha256()
    paths = sorted(os.path.join('peer', n) for n in os.listdir(os.path.join(root, 'peer')))
    for rel in paths + [os.path.join('scripts', 'peer-check.sh')]:
        with open(os.path.join(root, rel), 'rb') as f:
            h.update(rel.encode() + b'\0' + f.read() + b'\0')
    return {'peer_sha256': h.hexdigest()}


def rst_table(data, kind):
    """An rst simple table of the cells, build-only configurations or tiny
    cells of ci/matrix.json, as docs/harness.rst shows them (between
    ".. BEGIN matrix.py rst KIND" and ".. END" lines; a unit test checks
    that the two agree)."""
    cols = {'cells': [('cell', 'name'), ('arch', 'arch'), ('CPUs', 'cpus'),
                      ('QEMU arguments', 'qemu_args'), ('kunitconfig', 'kunitconfig')],
            'builds': [('build', 'name'), ('arch', 'arch'), ('needs', 'needs'),
                       ('kunitconfig', 'kunitconfig')],
            'tiny': [('tiny cell', 'name'), ('arch', 'arch'), ('needs', 'needs'),
                     ('expected results', 'expected')]}[kind]
    rows = [[h for h, _ in cols]] + [[str(e.get(k, '')) for _, k in cols]
                                     for e in data.get(kind, [])]
    width = [max(len(r[i]) for r in rows) for i in range(len(cols))]
    rule = '  '.join('=' * w for w in width)
    line = lambda r: '  '.join(c.ljust(w) for c, w in zip(r, width)).rstrip()
    return '\n'.join([rule, line(rows[0]), rule] + [line(r) for r in rows[1:]] + [rule])


def main(argv):
    if not argv:
        raise MatrixError(__doc__.strip())
    data = load()
    cmd, args = argv[0], argv[1:]
    if cmd == 'cells' and len(args) <= 1:
        return '\n'.join(c['name'] for c in select(data, args[0] if args else ''))
    if cmd == 'cell' and len(args) == 2:
        return field(data, args[0], args[1])
    if cmd == 'tiny' and len(args) <= 1:
        return '\n'.join(c['name'] for c in select(data, args[0] if args else '', 'tiny'))
    if cmd == 'builds' and len(args) <= 1:
        return '\n'.join(b['name'] for b in select(data, args[0] if args else '', 'builds'))
    if cmd == 'build' and len(args) == 2:
        return field(data, args[0], args[1], 'builds')
    if cmd == 'debug' and len(args) <= 1:
        return '\n'.join(d['name'] for d in select(data, args[0] if args else '', 'debug'))
    if cmd == 'debugcell' and len(args) == 2:
        return field(data, args[0], args[1], 'debug')
    if cmd == 'debugenv' and len(args) == 1:
        env = debug_env(select(data, args[0], 'debug')[0])
        return '\n'.join(f'{k}={v}' for k, v in env.items())
    if cmd == 'patches' and len(args) == 1:
        if args[0] not in data['trees']:
            raise MatrixError(f'no tree {args[0]} in the matrix '
                              f'(known: {", ".join(data["trees"])})')
        return data['trees'][args[0]]['patches']
    if cmd == 'version' and len(args) == 1:
        if args[0] not in data['trees']:
            raise MatrixError(f'no tree {args[0]} in the matrix')
        return data['trees'][args[0]]['version']
    if cmd == 'inputs' and args == ['peer']:
        return '\n'.join(f'{k}={v}' for k, v in peer_inputs().items())
    if cmd == 'inputs' and len(args) == 2 and args[0] in ('cell', 'build'):
        kind = args[0] + 's'
        entry = select(data, args[1], kind)[0]
        return '\n'.join(f'{k}={v}' for k, v in inputs(entry, kind).items())
    if cmd == 'rst' and len(args) == 1 and args[0] in ('cells', 'builds', 'tiny'):
        return rst_table(data, args[0])
    if cmd == 'github' and not args:
        return json.dumps(data['cells'], separators=(',', ':'))
    if cmd == 'check' and not args:
        return None
    raise MatrixError(__doc__.strip())


if __name__ == '__main__':
    try:
        out = main(sys.argv[1:])
    except MatrixError as err:
        print(f'matrix.py: {err}', file=sys.stderr)
        sys.exit(1)
    if out:
        print(out)
