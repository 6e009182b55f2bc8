# SPDX-License-Identifier: GPL-2.0
"""What runs: the targets of ci/matrix.json, the steps, and the inputs that decide a result.

ci/matrix.json is checked against ci/matrix.schema.json (python3-jsonschema) and then for what a
schema cannot say (names defined once, a debug cell's plain cell exists, files exist). Every other
module reads it through load() and Target.
"""

import functools
import hashlib
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MATRIX = os.path.join(REPO, 'ci', 'matrix.json')
SCHEMA = os.path.join(REPO, 'ci', 'matrix.schema.json')
BASELINE = '00-baseline'

# The QEMU that kunit.py's qemu_configs/<arch>.py starts.
QEMU = {'x86_64': 'qemu-system-x86_64', 'arm': 'qemu-system-arm'}
# Seconds QEMU may run (kunit.py --timeout) when KUNIT_TIMEOUT does not say.
KUNIT_TIMEOUT = '240'


class ConfigError(Exception):
    """ci/matrix.json, a series or a steps file is wrong, or a name unknown."""


@dataclass(frozen=True)
class Kernel:
    """A kernel package and its series (ci/matrix.schema.json, "kernels")."""
    package: str
    version: str
    patches: str
    hook: str
    floor: str = ''
    first: Tuple[str, ...] = ()
    mutants: str = ''


@dataclass(frozen=True)
class Target:
    """One thing built at a step: a cell, a tiny cell, a debug cell or a
    build-only configuration (see ci/matrix.schema.json)."""
    name: str
    arch: str
    cross_compile: str
    compiler: str
    console: str
    kunitconfig: Tuple[str, ...]
    cpus: int = 1
    build_only: bool = False
    needs: str = ''
    expected: str = ''
    same_as: str = ''
    kmemleak: bool = False
    make: Tuple[str, ...] = ()
    upstream: bool = False

    @property
    def kind(self) -> str:
        return ('upstream' if self.upstream else 'build' if self.build_only else
                'tiny' if self.expected else 'debug' if self.same_as else 'cell')

    @property
    def smp(self) -> bool:
        return self.cpus > 1

    @property
    def qemu_args(self) -> str:
        return f'-smp {self.cpus}' if self.smp else ''


def _check(data: dict) -> None:
    """What the schema cannot say."""
    names, pkgs = [t['name'] for t in data['targets']], [k['package'] for k in data['kernels']]
    if twice := sorted({n for n in names + pkgs if (names + pkgs).count(n) > 1}):
        raise ConfigError(f'matrix: defined twice: {", ".join(twice)}')
    plain = {t['name'] for t in data['targets'] if set(t) <= {'name', 'arch', 'cpus',
                                                             'kunitconfig', 'comment'}}
    for t in data['targets']:
        where = f'matrix: target {t["name"]}'
        if t['arch'] not in data['arches']:
            raise ConfigError(f'{where}: no arch {t["arch"]} in "arches"')
        if 'same_as' in t and t['same_as'] not in plain:
            raise ConfigError(f'{where}: same_as {t["same_as"]} is not a plain cell')
        if 'needs' in t and not ('expected' in t or t.get('build_only')):
            raise ConfigError(f'{where}: "needs" is for tiny cells and build-only '
                              'configurations')
        for field, value in t.items():
            if wrong := set(value) - set(pkgs) if isinstance(value, dict) else ():
                raise ConfigError(f'{where}: "{field}" names no kernel: {", ".join(sorted(wrong))}')
        for field in ('expected', 'kunitconfig'):
            value = t.get(field, [])
            for paths in value.values() if isinstance(value, dict) else [value]:
                for path in [] if t.get('upstream') else [paths] if isinstance(
                        paths, str) else paths:
                    if not os.path.isfile(os.path.join(REPO, path)):
                        raise ConfigError(f'{where}: no file {path}')
    for k in kernels(data):
        if not os.path.isfile(os.path.join(REPO, k.hook)):
            raise ConfigError(f'matrix: kernel {k.package}: no file {k.hook}')
        if k.mutants and not os.path.isfile(os.path.join(REPO, k.mutants, 'floor')):
            raise ConfigError(f'matrix: kernel {k.package}: no list {k.mutants}/floor')
        kinds = {t.name: t.kind for t in targets(data, kernel=k.package)}
        if k.floor and kinds.get(k.floor) != 'cell':
            raise ConfigError(f'matrix: kernel {k.package}: the floor {k.floor} is no cell of it')
        if wrong := [n for n in k.first if kinds.get(n) not in ('cell', 'tiny')]:
            raise ConfigError(f'matrix: kernel {k.package}: "first" names no cell or tiny cell '
                              f'of it: {", ".join(wrong)}')


def load(path: str = MATRIX) -> dict:
    """ci/matrix.json, checked."""
    import jsonschema  # pylint: disable=import-outside-toplevel
    try:
        data, schema = json.loads(read(path)), json.loads(read(SCHEMA))
    except (OSError, ValueError) as e:
        raise ConfigError(f'matrix: cannot read {e}') from e
    error = jsonschema.exceptions.best_match(jsonschema.Draft7Validator(schema).iter_errors(data))
    if error:
        where = '/'.join(str(p) for p in error.absolute_path) or 'top level'
        raise ConfigError(f'matrix: {path}: {where}: {error.message}')
    _check(data)
    return data


@functools.lru_cache(maxsize=None)
def arch(name: str) -> Dict[str, str]:
    """The settings of arch @name in ci/matrix.json (cross_compile,
    compiler, console), for what builds outside the targets."""
    return load()['arches'][name]


def pick(pool: dict, names: str, what: str) -> list:
    """The values of @pool named in a comma-separated list (all when empty), in that order."""
    wanted = [n for n in names.split(',') if n] or list(pool)
    if unknown := [n for n in wanted if n not in pool]:
        raise ConfigError(f'unknown {what}(s): {", ".join(unknown)} (known: {", ".join(pool)})')
    return [pool[n] for n in wanted]


def kernels(data: dict, names: str = '') -> List[Kernel]:
    """The kernels (packages) named in a comma-separated list, all when empty."""
    return pick({k['package']: Kernel(**{n: tuple(v) if isinstance(v, list) else v
                                         for n, v in k.items()}) for k in data['kernels']},
                names, 'kernel')


def targets(data: dict, names: str = '', kinds: Tuple[str, ...] = (),
            kernel: str = '') -> List[Target]:
    """The targets of @kernel (a package; the first when empty) named in a comma-separated list
    (all when empty), of the given kinds (any when empty), in the order of the file. A field given
    as {package: value} is that kernel's value: a target with such a field that does not name
    @kernel is not one of its targets."""
    kernel = kernel or data['kernels'][0]['package']
    every = []
    for t in data['targets']:
        fields = {k: v.get(kernel) if isinstance(v, dict) else v
                  for k, v in t.items() if k != 'comment'}
        if None not in fields.values():
            every.append(Target(**{k: tuple(v) if isinstance(v, list) else v
                                   for k, v in fields.items()},
                                **{k: data['arches'][t['arch']][k]
                                   for k in ('cross_compile', 'compiler', 'console')}))
    pool = {t.name: t for t in every if not kinds or t.kind in kinds}
    return pick(pool, names, '/'.join(kinds) or 'target')


def read_series(series_dir: str) -> List[str]:
    """Patch file names of SERIES_DIR/series, in order ('#' starts a
    comment), each checked to exist."""
    path = os.path.join(series_dir, 'series')
    try:
        names = read_list(path)
    except OSError as e:
        raise ConfigError(f'no series file at {path}: {e.strerror}') from e
    for n in names:
        if not os.path.isfile(os.path.join(series_dir, n)):
            raise ConfigError(f'{path} names {n}, but {os.path.join(series_dir, n)} '
                              'does not exist')
    return names


def read_steps(path: str) -> List[Tuple[str, str]]:
    """(name, commit) of every step of a steps file ("NN-name sha" lines,
    sched_tinify/tree.py writes it), 00-baseline first."""
    try:
        lines = [line.split() for line in read(path).splitlines() if line.strip()]
    except OSError as e:
        raise ConfigError(f'no steps file at {path} ({e.strerror}): '
                          'run scripts/matrix.sh --prepare-only') from e
    if any(len(parts) != 2 for parts in lines):
        raise ConfigError(f'{path}: every line must be "NN-name sha"')
    if not lines or lines[0][0] != BASELINE:
        raise ConfigError(f'{path}: the first step must be {BASELINE}')
    return [(name, sha) for name, sha in lines]


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_files() -> List[str]:
    """The files kunit/ lays on the tree, as paths in both: kernel/...."""
    top = os.path.join(REPO, 'kunit')
    return sorted(os.path.relpath(os.path.join(d, f), top)
                  for d, _, names in os.walk(os.path.join(top, 'kernel')) for f in names)


def read(path: str, errors: str = 'strict') -> str:
    with open(path, encoding='utf-8', errors=errors) as f:
        return f.read()


def read_list(path: str) -> List[str]:
    """The names of a list file, one a line, '#' starting a comment."""
    return [n for n in (line.split('#', 1)[0].strip() for line in read(path).splitlines()) if n]


def write(path: str, text: str) -> None:
    """@path holds @text whole, or what it held before (a kill half-way leaves PATH.tmp)."""
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    with open(path + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


def remove(*paths: str) -> None:
    """Remove each of @paths that is there when its turn comes: a file, a link or a folder."""
    for path in paths:
        if os.path.lexists(path):
            (shutil.rmtree if os.path.isdir(path) and not os.path.islink(path) else os.remove)(path)


def file_digest(path: str) -> str:
    with open(os.path.join(REPO, path), 'rb') as f:
        return digest(f.read())


@functools.lru_cache(maxsize=None)
def first_line(*argv: str) -> str:
    """First line of a tool's --version, or why there is none (asked once a run)."""
    try:
        out = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        return f'unavailable ({e.__class__.__name__})'
    return (out.splitlines() or ['unavailable (no output)'])[0].strip()


def inputs(target: Target, sha: str, env: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """Everything that decides @target's result at the step @sha: the commit, the target's
    definition, the bytes of its kunitconfig fragments and expected file, the compiler and (booted
    targets) QEMU and the time-out. key() of it names the result."""
    env = os.environ if env is None else env
    out = {
        'sha': sha,
        # The fields set, not the defaults: a new optional field leaves
        # the results of the targets without it fresh.
        'target': json.dumps({k: v for k, v in target.__dict__.items()
                              if v != Target.__dataclass_fields__[k].default},
                             sort_keys=True),
        # The upstream-form tests take their kunitconfig from the tree (sha).
        'kunitconfig': ' '.join(file_digest(p) for p in target.kunitconfig)
                       if not target.upstream else ' '.join(target.kunitconfig),
        'compiler': first_line(*target.compiler.split(), '--version'),
    }
    if target.expected:
        out['expected'] = file_digest(target.expected)
    if target.kmemleak:
        out['kmemleak_init'] = file_digest('scripts/kmemleak-init.c')
    if not target.build_only:
        out['qemu'] = first_line(QEMU.get(target.arch, f'qemu-system-{target.arch}'), '--version')
        out['kunit_timeout'] = env.get('KUNIT_TIMEOUT') or KUNIT_TIMEOUT
    return out


def key(inputs_: Dict[str, str]) -> str:
    """The name of a result: the digest of its inputs."""
    return digest(json.dumps(inputs_, sort_keys=True).encode())[:16]
