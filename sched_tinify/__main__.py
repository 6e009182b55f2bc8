# SPDX-License-Identifier: GPL-2.0
"""The pipeline: run what is asked, one target step at a time, then judge everything and write the
report (results/PKG/report.md, report.json, junit/). The commands (docs/harness.rst):

run      build and boot each target at each step, then judge (the main
         job without --targets, --kinds, --steps or --repeat)
judge    judge the results that are there (of the steps as they are now) and write the report
test     the test command: the static checks, then the deadline loop
mutants  PATH...: every mutant where it applies, against its control
sizes    the tiny kernels of sched_tinify/sizes.py
prepare  the kernel tree and its steps (sched_tinify/tree.py)
ci       check the CI definition (sched_tinify/ci.py)
list, info, results: the targets; ci/matrix.json's values; a target
         step's results as an expected file's lines

Exit status: 0 green, 1 red, 2 the harness could not run or judge, 75 another run holds the work
folder, 128+N stopped by signal N.
"""

import argparse
import json
import os
import re
import shutil
import signal
import sys
import time
import traceback
from typing import Dict, List, Optional, Tuple

from . import budget, ci, config, judge, mutants, parse, peer, render, run, sizes, tree

# How much the text of vmlinux or kernel/sched/ may grow, baseline to the
# last step, in percent, in any plain cell (the options at y).
SIZE_LIMIT = 0.1
# Seconds the test command keeps after its last item for the report.
JUDGE = 180
# Settings of one kernel's package or series (sched_tinify/tree.py, run.Work).
ONE_KERNEL = ('SCHED_TINIFY_SERIES', 'SCHED_TINIFY_TARBALL', 'SCHED_TINIFY_PKG_VERSION',
              'SCHED_TINIFY_STEPS_FILE')


def reference(work: run.Work, kp, t: config.Target, step: str, sha: str) -> dict:
    """The judged result @t is held against at @step: the plain cell's at
    the same step for a debug cell, else its own at the baseline."""
    if t.same_as:
        t = config.targets(config.load(), t.same_as, kernel=work.pkg)[0]
    else:
        step, sha = config.read_steps(work.steps_file)[0]
    e = judge.entry(work, kp, t, step, sha)
    if not e['status'] or e['status'] == judge.BUILT:
        judge.compare(t, step, e, None if step == config.BASELINE else
                      reference(work, kp, t, step, sha))
    return e


def progress(work: run.Work, kp, target: config.Target, step: str, sha: str) -> str:
    """One line on what a target did at a step."""
    e = judge.entry(work, kp, target, step, sha)
    if not e['status'] or e['status'] == judge.BUILT:
        judge.compare(target, step, e, reference(work, kp, target, step, sha))
    if e['status'] in (judge.NA,):
        return 'n/a: the step has no config ' + target.needs
    head = f'build {e["seconds"][0]} s'
    if e['status'] == judge.BUILT:
        return f'{head}, {len(e["warnings"])} W=1 warning(s), {len(e["differences"])} new'
    if not e['counts']:
        return '; '.join(e['problems']) or e['status']
    n = e['counts']
    line = (f'{head}, run {e["seconds"][1]} s, {n["PASS"]} passed, {n["SKIP"]} skipped, '
            f'{n["FAIL"] + n["CRASH"]} failed, {e["status"]}')
    return line + ''.join(f'; {p}' for p in e['problems'][:1])


def work_items(targets: List[config.Target], steps: List[Tuple[str, str]]):
    """(target, step, sha) in run order: step by step, cells and builds, tiny cells, debug cells."""
    order = {'cell': 0, 'build': 1, 'tiny': 2, 'debug': 3}
    for step, sha in steps:
        for t in sorted([t for t in targets if t.kind in order], key=lambda x: order[x.kind]):
            yield t, step, sha


def selfcheck(work: run.Work, kp, t: config.Target, step: str, sha: str):
    """(a line, problems) of a debug cell's boot with the planted bugs: each must be reported."""
    sw, planted = work.sub('selfcheck', t.name), run.Overlay.planted()
    e = judge.entry(sw, kp, t, step, sha, want=run.inputs_of(t, sha, overlay=planted))
    if e['status']:  # not run, stale, incomplete, a harness failure, a failed build
        why = (e['problems'] or [e['status']])[0]
        return f'{t.name}: planted bugs: {why}', [f'selfcheck {t.name}: {why}']
    checks = mutants.planted(judge.read_log(os.path.join(sw.out(step, t.name), 'test.log')))
    missed = [f'selfcheck {t.name}: {name} MISSED: {why}' for name, ok, why in checks if not ok]
    return (f'{t.name}: planted bugs: {len(checks) - len(missed)} of {len(checks)} checks '
            f'caught them', missed)


def upstream_line(work: run.Work, kp, t: config.Target):
    """(a line, problems) of the upstream-form tests."""
    suites = run.suites_added(work.series)
    e = judge.upstream(work, kp, t, run.upstream_sha(work), suites)
    n = e['counts']
    what = f'{n.get("PASS", 0)} passed, {n.get("FAIL", 0) + n.get("CRASH", 0)} failed, ' \
        f'suites {", ".join(suites)}' if e['counts'] else e['status']
    return (f'{t.name}: {e["status"].upper()}: {what}',
            [f'upstream {t.name}: {p}' for p in e['problems'] + e['failures']])


def cmd_sizes(args, work: run.Work, steps) -> int:
    """The tiny kernel of each arch in each variant at each step
    (sched_tinify/sizes.py), then RESULTS/PKG/size/report.md."""
    shutil.rmtree(os.path.join(work.results, 'size'), ignore_errors=True)
    variants = [('tiny', '')] + [tuple(v.split('=', 1)) for v in args.variant]
    for arch in args.arch.split(','):
        for name, opts in variants:
            set_ = [re.fullmatch(r'CONFIG_(\w+)=([yn])', o) for o in opts.split(',') if o]
            if not all(set_):
                raise config.ConfigError(f'variant {name}: CONFIG_X=y or =n only')
            on, off = ([m[1] for m in set_ if m[2] == v] for v in 'yn')
            for step, sha in steps:
                what = sizes.measure(work, arch, name, on, off, step, sha)
                print(f'{arch} {name} {step}: {what}', flush=True)
    config.write(os.path.join(work.results, 'size', 'report.md'), sizes.render(
        os.path.join(work.results, 'size'), work.tree, [s for s, _ in steps]) + '\n')
    print(f'size report: {os.path.join(work.results, "size", "report.md")}')
    return 0


def run_selfchecks(work: run.Work, kp, targets, step: str, sha: str, reuse: bool = True) -> None:
    """Each debug cell with the planted bugs at @step (the last); @reuse keeps a fresh result."""
    for t in [t for t in targets if t.kind == 'debug']:
        sw, planted = work.sub('selfcheck', t.name), run.Overlay.planted()
        if reuse and run.kept(sw, t, step, sha, overlay=planted):
            print(f'[selfcheck] {t.name}: planted bugs at {step}: fresh result kept')
        else:
            print(f'[selfcheck] {t.name}: planted bugs at {step}: started', flush=True)
            run.run(sw, t, step, sha, work.series, overlay=planted)
        print(f'[selfcheck] {selfcheck(work, kp, t, step, sha)[0]}', flush=True)


def cmd_mutants(args, work: run.Work, targets, steps, kp, run_them=True, tried=None):
    """Run each mutant where it applies (mutants.plan()) after its control (a cell's baseline too),
    unless @run_them is false or the control cannot judge it (a control is tried once: @tried),
    and judge it: results/PKG/mutants/summary.md. (Exit status, 2 if any of those runs was a
    harness failure; score lines; problems.)"""
    todo = mutants.plan(work, mutants.expand(args.paths), targets, steps, args.last_only)
    if not todo:
        raise config.ConfigError('no mutant applies to the targets asked for')
    env = mutants.env()
    rows, base, tried = [], config.read_steps(work.steps_file)[0], set() if tried is None else tried
    for i, (m, t, step, sha) in enumerate(todo, 1):
        tag = f'[{i}/{len(todo)}] {m.name} {t.name} {step[:2]}'
        mut = (work.sub('mutants', m.name), run.Overlay.mutant(m.path, m.file), env, (step, sha))
        for w, overlay, e, at in ([(work, None, None, base)] if t.kind == 'cell' else []) + [
                (work, None, None, (step, sha)), mut]:
            if overlay and mutants.control_problem(work, kp, t, step, sha):
                break
            if run_them and (overlay or (t.name, at) not in tried) and not run.kept(
                    w, t, *at, overlay=overlay, env=e):
                tried.update([] if overlay else [(t.name, at)])
                print(f'{tag}: {"mutant" if overlay else "control"} at {at[0][:2]}: started',
                      flush=True)
                run.run(w, t, *at, work.series, overlay=overlay, env=e)
        result, diffs = mutants.judge_one(work, kp, m, t, step, sha, env)
        print(f'{tag}: {result}', flush=True)
        rows.append((m, t, step, result, diffs))
    lines, bad = mutants.summary(rows)
    config.write(os.path.join(work.results, 'mutants', 'summary.md'),
                 '\n'.join(['# Mutants', ''] + lines) + '\n')
    print('\n'.join(lines[:lines.index('')]))
    return judge.exit_status(bad, 'RED' if bad else 'GREEN'), lines[:lines.index('')], bad


def every_mutant(args, work: run.Work, targets, steps, kp):
    """The main job's mutants, every one where it applies at its first step and its last, run
    unless judging: [its report section] (a run the harness failed on is a problem that says
    so: exit 2)."""
    title = 'Mutants (every one at its first step and its last; mutants/summary.md)'
    try:
        if not (paths := mutants.folders(top := mutants.folder(args.mutants, work.kernel))):
            return [(title, [], [f'mutants: none in {top}' if top else
                                 f'mutants: none for {work.kernel.package} (ci/matrix.json)'])]
        _, head, bad = cmd_mutants(argparse.Namespace(paths=paths, last_only=False), work,
                                   targets, steps, kp, args.command == 'run')
        return [(title, head, bad)]
    except (config.ConfigError, run.HarnessError, OSError, ValueError) as e:
        print(f'sched_tinify: mutants: harness failure: {e}', file=sys.stderr)
        return [(title, [], [f'mutants: {judge.HARNESS}: {e}'])]


def run_steps(work: run.Work, kp, targets, steps, todo: Optional[Dict[str, List[str]]] = None,
              sched_only: bool = False, reuse: bool = True) -> None:
    """Run each target at each step, step by step (or what @todo names, {target: [step]}), keeping
    what is fresh with @reuse; a line as each starts and ends."""
    items = [(t, step, sha) for t, step, sha in work_items(targets, steps)
             if todo is None or step in todo.get(t.name, [])]
    for i, (t, step, sha) in enumerate(items, 1):
        tag = f'[{i}/{len(items)}] {step} {t.name}'
        if reuse and run.kept(work, t, step, sha, sched_only=sched_only):
            print(f'{tag}: fresh result kept', flush=True)
        else:
            print(f'{tag}: started', flush=True)
            run.run(work, t, step, sha, work.series, sched_only)
        print(f'{tag}: {progress(work, kp, t, step, sha)}', flush=True)


# The test command's static checks, run from the repository.
CHECKS = (('unit tests of the tooling', [sys.executable, '-m', 'unittest', 'discover', '-s',
                                         'scripts/tests', '-t', 'scripts']),
          ('shellcheck', ['bash', '-c', 'shellcheck -x scripts/*.sh .ci/run && '
                          'echo "shellcheck: clean"']),
          ('checkpatch --strict', ['scripts/checkpatch.sh']),
          ('CI definition', [sys.executable, '-m', 'sched_tinify', 'ci']))


def static_checks(work: run.Work, start: float) -> Dict[str, int]:
    """The tooling's unit tests, shellcheck, checkpatch --strict, the CI definition (CHECKS), run
    with this run's folders: {name: exit status} of those that failed (1: red; else 2)."""
    env = dict(os.environ, SCHED_TINIFY_TREE=work.tree, SCHED_TINIFY_WORK=work.work,
               SCHED_TINIFY_RESULTS=os.path.dirname(work.results))
    failed = {}
    for name, argv in CHECKS:
        print(f'\n== {name} (at {round(time.time() - start)} s)', flush=True)
        rc = run.command(argv, None, cwd=config.REPO, env=env)
        if rc:
            failed[name] = rc
    return failed


def checks_status(failed: Dict[str, int]) -> int:
    """The test command's exit status after its static checks: 1 if each found problems, else 2."""
    return 0 if not failed else 1 if set(failed.values()) == {1} else 2


class Loop:  # pylint: disable=too-many-instance-attributes
    """The test command's deadline loop for one kernel (sched_tinify/budget.py): its floor's items
    (run first, for every kernel, whatever their estimate), then the others in order while they
    fit; then the report of what ran, naming what was left."""

    def __init__(self, args, work: run.Work, targets, steps, kp):
        self.args, self.work, self.targets, self.steps, self.kp = args, work, targets, steps, kp
        self.names = names = [s for s, _ in steps]
        self.folder = mutants.folder(args.mutants, work.kernel)
        self.floor = budget.floor_cell(targets, work.kernel)
        self.count, todo = budget.count_mutants(work, targets, steps, self.folder, self.floor)
        self.found = budget.items(targets, names, budget.option_steps(work, targets, steps),
                                  args.repeat, self.count, work.kernel.first, self.floor)
        by, sha, planted = {t.name: t for t in targets}, dict(steps), run.Overlay.planted()
        # A debug cell's last step is built again with the planted bugs unless that result is
        # fresh.
        self.costs = budget.Costs(targets, budget.measured(work, targets, names), budget.Rebuilt(
            work, steps), budget.cells_boots(targets), todo, lambda n, s, sched: run.kept(
                work, by[n], s, sha[s], sched_only=sched) and (by[n].kind != 'debug' or s != names[
                    -1] or run.kept(work.sub('selfcheck', n), by[n], s, sha[s], overlay=planted)))
        self.plan: Dict[str, List[str]] = {}
        self.left, self.failed, self.repeat = [], [], 0
        self.ran, self.tried, self.floor_ran = set(), set(), []

    def run(self, floor: bool) -> None:
        """The items of the floor, or the others."""
        args, work, targets, steps, kp, names = (self.args, self.work, self.targets, self.steps,
                                                 self.kp, self.names)
        deadline = args.budget * 60 - JUDGE
        if not floor:  # the floor's mutant runs are fresh now
            self.costs.mutants = budget.count_mutants(work, targets, steps, self.folder,
                                                      self.floor)[1]
        for item in [i for i in self.found if i.floor == floor]:
            elapsed = round(time.time() - args.start)
            missing = [f'{n} at {s}' for n, s in item.needs if s not in self.plan.get(n, [])]
            estimate = self.costs(item, names)
            if missing:
                self.left.append(f'{item.name}: it needs {", ".join(missing)}, which this run did '
                                 'not run')
                continue
            fits = elapsed + estimate <= deadline
            if not fits and not floor:
                self.left.append(f'{item.name}: estimated at {estimate} s with '
                                 f'{max(deadline - elapsed, 0)} s to go')
                continue
            print(f'\n== {work.pkg}: {item.name} (estimated at {estimate} s, at {elapsed} s'
                  f'{"" if fits else f", {max(deadline - elapsed, 0)} s to the deadline"})',
                  flush=True)
            # The results of its target steps and of those planned (a repeat or a mutant's
            # control may build one again), put back if the deadline cuts one half-redone.
            aside, had = os.path.join(work.work, work.pkg, 'aside'), {
                (n, s) for n, todo in [*self.plan.items(), *item.work.items()] for s in todo
                if run.load(work, s, n)}
            config.remove(aside)
            for n, s in had:
                shutil.copytree(work.out(s, n), os.path.join(aside, s, n))
            signal.alarm(max(deadline - round(time.time() - args.start), 1))
            try:
                run_steps(work, kp, targets, steps, item.work, item.sched_only)
                debug = [t for t in targets if t.kind == 'debug' and t.name in item.work]
                if debug and steps[-1][0] in item.work[debug[0].name]:
                    run_selfchecks(work, kp, debug, *steps[-1])
                    self.ran.add('selfcheck')
                for t in [t for t in targets if t.kind == 'cell' and item.repeat]:
                    run.repeat(work, t, *steps[-1], work.series, item.repeat)
                for t in [t for t in targets if t.kind == 'upstream' and item.upstream]:
                    run.run(work, t, 'upstream', run.upstream_sha(work), work.series)
                    self.ran.add('upstream')
                if item.mutants:
                    self.mutants(item)
            except (run.Stopped, run.HarnessError, config.ConfigError, OSError, ValueError) as e:
                if isinstance(e, run.Stopped) and e.signum != run.DEADLINE:
                    raise
                self.cut(item, e, had, aside)
                continue
            finally:
                signal.alarm(0)
            self.floor_ran += [item.name] * item.floor
            self.repeat = item.repeat or self.repeat
            for name, todo in item.work.items():
                self.plan[name] = sorted(set(self.plan.get(name, [])) | set(todo), key=names.index)
            self.costs.ran(item, names, budget.measured(work, targets, names))
        config.remove(os.path.join(work.work, work.pkg, 'aside'))

    def mutants(self, item: budget.Item) -> None:
        """The mutant runs of @item, at the last step."""
        lists = {'floor': 'floor', 'subset': 'ci-subset'}
        paths = [os.path.join(self.folder, lists[item.mutants])] if item.mutants in lists else \
            mutants.folders(self.folder)
        which = [t for t in self.targets if t.name == (self.floor if item.mutants == 'floor'
                                                       else item.mutants) or
                 (t.kind == 'cell' and item.mutants in ('subset', 'all'))]
        rc, _, bad = cmd_mutants(argparse.Namespace(paths=paths, last_only=True), self.work,
                                 which, self.steps, self.kp, tried=self.tried)
        self.failed.extend(f'{item.name}: {b}' for b in bad)

    def cut(self, item: budget.Item, e: Exception, had, aside: str) -> None:
        """@item cut by the deadline or failed: the results it wrote and ended are judged (as
        planned), and those it left half-redone are put back."""
        work = self.work
        done = {(n, s) for n, todo in item.work.items() for s in todo
                if (r := run.load(work, s, n) or {}).get('complete')
                and r != run.load_json(os.path.join(aside, s, n, 'result.json'))}
        with run.Deferred():
            for n, s in [(n, s) for n, s in had if not (run.load(work, s, n) or {}).get(
                    'complete')]:
                config.remove(work.out(s, n))
                shutil.move(os.path.join(aside, s, n), work.out(s, n))
        for n, s in done:
            self.plan[n] = sorted(set(self.plan.get(n, [])) | {s}, key=self.names.index)
        if isinstance(e, run.Stopped):
            self.left.append(f'{item.name}: stopped at the deadline, at '
                             f'{round(time.time() - self.args.start)} s')
        else:  # the harness failed on this item: say so, and go on
            print(f'sched_tinify: {item.name}: harness failure: {e}', file=sys.stderr)
            self.failed.append(f'{item.name} ({judge.HARNESS}: {e})')

    def report(self) -> int:
        args, work, names = self.args, self.work, self.names
        print(f'\n== {work.pkg}: the report of what ran, at {round(time.time() - args.start)} s',
              flush=True)
        print('left to the main job:\n' + '\n'.join(f'- {x}' for x in self.left) if self.left
              else 'nothing left')
        args.repeat = self.repeat
        # Mutant runs at the last step with no fresh result: every one of the cells and of each
        # tiny cell (those of the floor and the subset are among them).
        _, todo = budget.count_mutants(work, self.targets, self.steps, self.folder, self.floor)
        floor = judge.floor([i.name for i in self.found if i.floor] + [
            f'the floor: its mutants (none of {self.folder or "no folder"}/floor runs in '
            f'{self.floor})'] * (not self.count.get('floor') and bool(self.floor)), self.floor_ran)
        return report(args, work, self.targets, self.steps, self.kp, self.plan, self.left,
                      self.ran, [("The floor", *floor, "" if floor[1] else "the floor")] +
                      [('Items that failed', [f'- {x}' for x in self.failed], self.failed)] *
                      bool(self.failed),
                      sum(v for k, v in todo.items() if k not in ('floor', 'subset')))


LOOPS: Dict[str, Loop] = {}


def cmd_test(args, work: run.Work, targets, steps, kp) -> int:
    """The static checks (once), then the floor of this kernel (phase 'floor'), or the other items
    and the report (phase 'rest')."""
    if failed := ({} if args.no_checks else static_checks(work, args.start)):
        print(f'red: {", ".join(f"{n} (exit {rc})" for n, rc in failed.items())} (see above)')
        return checks_status(failed)
    if args.no_matrix:
        return 0
    args.repeat, args.peer_at = args.repeat or int(os.environ.get('SCHED_TINIFY_REPEAT', '5')), []
    if args.phase == 'floor':
        if not LOOPS:
            print(f'\n== the floor of every kernel, then as much of the main job and of the '
                  f'mutants as ends before the deadline (at {round(time.time() - args.start)} s)',
                  flush=True)
        LOOPS[work.pkg] = Loop(args, work, targets, steps, kp)
        LOOPS[work.pkg].run(floor=True)
        return 0
    LOOPS[work.pkg].run(floor=False)
    return LOOPS[work.pkg].report()


def cmd_run(args, work: run.Work, targets, steps, kp) -> None:
    run_steps(work, kp, targets, steps, None, args.sched_only, args.reuse)
    last, sha = steps[-1]
    if last == config.read_steps(work.steps_file)[-1][0]:
        run_selfchecks(work, kp, targets, last, sha, args.reuse)
    for step, sha in args.peer_at:
        print(f'[peer] {step}: the requests of chrt in a tiny arm kernel: started', flush=True)
        peer.run_peer(work, step, sha)
        print(f'[peer] {step}: {"; ".join(peer.judge(work, step, sha)) or "GREEN"}', flush=True)
    for t in [t for t in targets if t.kind == 'upstream']:
        print(f'[upstream] {t.name}: the upstream-form tests: started', flush=True)
        run.run(work, t, 'upstream', run.upstream_sha(work), work.series)
        print(f'[upstream] {upstream_line(work, kp, t)[0]}', flush=True)
    for t in [t for t in targets if t.kind == 'cell' and args.repeat]:
        print(f'[repeat] {t.name} at {last}, {args.repeat} boot(s) a variant: started', flush=True)
        run.repeat(work, t, last, sha, work.series, args.repeat)
        print(f'[repeat] {judge.repeats(work, kp, t, last, sha, args.repeat)["line"]}', flush=True)


def report(args, work: run.Work, targets, steps, kp, plan=None, left=(), ran=None,
           extra=(), left_mutants=0) -> int:
    """Judge @targets at @steps and write the report, with @extra sections (title,
    lines, problems). With a @plan (the test command's), what it left is left, not missing:
    the upstream-form tests and the planted bugs are judged only if @ran names them;
    @left_mutants: the mutant runs it left."""
    # A debug cell is judged against its plain cell: judge that one too.
    plain = {t.same_as for t in targets if t.same_as} - {t.name for t in targets}
    targets = targets + [t for t in config.targets(args.data, kinds=('cell',), kernel=work.pkg)
                         if t.name in plain]
    data = judge.judge_run(work, kp, targets, steps, plan,
                           reference_only=bool(args.steps) and config.BASELINE not in
                           args.steps.split(','))
    data['left_items'], data['left_mutants'] = list(left), left_mutants
    ran = {'upstream', 'selfcheck'} if plan is None else (ran or set())
    installed = config.read(os.path.join(work.work, work.pkg, 'package-version')).strip()
    data.update(
        steps=steps, kinds={t.name: t.kind for t in targets if t.kind != 'upstream'},
        names=[t.name for t in targets],
        package=work.pkg, package_version=installed, series_dir=work.series,
        series=[(n, config.file_digest(os.path.join(work.series, n)))
                for n in config.read_series(work.series)],
        kernel='.'.join(re.findall(r'^(?:VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)$', run.git(
            work.tree, 'show', 'pristine:Makefile').stdout, re.M)),
        warnings=[] if installed == work.kernel.version else
        [f'the installed package version {installed} is not the version the series is '
         f'tested on ({work.kernel.version}, ci/matrix.json): these results are not those '
         'of the tested tree'],
        skips=[f'{n}: {p}: {r}' for n, e in data['grid'].get(config.BASELINE, {}).items()
               for p, (s, r) in e['results'].items() if s == parse.SKIP], sections=[])

    def section(title: str, lines: List[str], problems: List[str], check: str = '') -> None:
        data['sections'].append({'title': title, 'lines': lines, 'check': check})
        data['problems'] += problems
        data['verdict'] = 'RED' if problems else data['verdict']
    final = config.read_steps(work.steps_file)[-1]  # the series' last step: it has every option
    if unmet := [f'{t.name} needs CONFIG_{t.needs}, which the last step does not define: it is '
                 'n/a or built without its section there' for t in targets
                 if t.needs and t.needs not in run.options(work.tree, final[1])]:
        section('Targets whose option the last step lacks', [f'- {u}' for u in unmet], unmet)
    last, sha = steps[-1]
    if last != config.BASELINE:
        section('Size', *judge.sizes(data['grid'], data['kinds'], config.BASELINE, last,
                                     SIZE_LIMIT))
        section('Code: kernel/sched/core.c per step, and the diffstat of the series',
                judge.code(work.tree, steps), [])
    if args.repeat:
        lines = ['Each cell booted again without a build; a case is flaky when a run\'s '
                 'result differs from the first run\'s of the same variant (cpusN: QEMU -smp '
                 'N; -loaded: one busy loop per host CPU).', '']
        problems = []
        for t in [t for t in targets if t.kind == 'cell']:
            rep = judge.repeats(work, kp, t, last, sha, args.repeat)
            lines += [f'- {rep["line"]}']
            lines += [f'  - {v}: flaky: {case} ({n} run(s))' for v, x in rep['variants'].items()
                      for case, n in sorted(x['flaky'].items())]
            lines += [f'  - {v} against the cell as it is (not a flake): {d}'
                      for v, ds in rep['cross'].items() for d in ds]
            problems += [f'repeat {t.name}: {p}' for p in rep['problems']] or (
                [f'repeat {t.name}: {rep["status"]}'] if rep['status'] != 'green' else [])
        section('Repeated boots', lines, problems, 'the repeated boots')
    if args.peer_at:
        lines, problems = [], []
        for step, step_sha in args.peer_at:
            wrong = peer.judge(work, step, step_sha)
            res = run.load_json(os.path.join(work.results, 'peer', step, 'result.json')) or {}
            lines += [f'- {step}: {"RED" if wrong else "GREEN"}: as peer/'
                      f'{peer.expected_name(work, step_sha)}.expected' +
                      ''.join(f'; {w}' for w in wrong)]
            lines += [f'  - {x}' for x in res.get('info', [])]
            problems += [f'{step} peer: {w}' for w in wrong]
        section('Peer check (the requests of chrt in a tiny arm kernel)', lines, problems,
                f'the peer check at {len(args.peer_at)} step(s)')
    for t in [t for t in targets if t.kind == 'upstream' and 'upstream' in ran]:
        line, problems = upstream_line(work, kp, t)
        section('Upstream-form tests (the series\' kunit/ on the pristine tree)', [line],
                problems, 'the upstream-form tests')
    if last == final[0] and 'selfcheck' in ran:
        for t in [t for t in targets if t.kind == 'debug']:
            line, problems = selfcheck(work, kp, t, last, sha)
            section(f'Debug cell {t.name}: planted bugs', [line], problems,
                    f'the planted bugs of {t.name}')
    for title, lines, problems, *check in extra:
        section(title, lines, problems, *check)
    config.write(os.path.join(work.results, 'report.json'),
                 json.dumps(data, indent=1, sort_keys=True))
    render.write(data, work.results)
    print(render.verdict_line(data), render.kunit_line(data), sep='\n')
    # 2 when the harness failed on anything: a target step, the peer check, the upstream tests...
    return judge.exit_status(data['problems'], data['verdict'])


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(prog='python3 -m sched_tinify', description=__doc__.split('\n')[0])
    ap.add_argument('command', choices=('run', 'judge', 'mutants', 'test', 'list', 'info',
                                        'results', 'sizes', 'prepare', 'ci'))
    ap.add_argument('--arch', default='arm,x86_64', help='sizes: architectures')
    ap.add_argument('--variant', action='append', default=[], metavar='NAME=CONFIG_X=y|n,...',
                    help='sizes: a variant of the tiny configuration')
    ap.add_argument('--json', action='store_true', help='list: as JSON')
    ap.add_argument('--rst', action='store_true', help='list: as an rst table')
    ap.add_argument('--same-as', default='', help='list: the debug cells of this cell')
    ap.add_argument('--suites', action='store_true', help='list: with the suites of mutants')
    ap.add_argument('--elapsed', type=int, default=0,
                    help='test: seconds of the budget already spent (the set-up)')
    ap.add_argument('--mutants', help='test, list: the folder of the mutants (default: the '
                    'kernel\'s in ci/matrix.json)')
    ap.add_argument('--budget', type=int, default=os.environ.get('SCHED_TINIFY_BUDGET', '75'),
                    help='test: minutes to the deadline (SCHED_TINIFY_BUDGET, default 75)')
    ap.add_argument('--no-matrix', action='store_true', help='test: the static checks only')
    ap.add_argument('--no-checks', action='store_true',
                    help='test: no static checks, the deadline loop only (the tests of the loop)')
    ap.add_argument('paths', nargs='*', help='mutants: folders, *.sed files or lists')
    ap.add_argument('--last-only', action='store_true', help='mutants: at their last step only')
    ap.add_argument('--judge-only', action='store_true', help='mutants: judge, run nothing')
    ap.add_argument('--targets', default='')
    ap.add_argument('--kinds', default='', help='cell,tiny,debug,build,upstream')
    ap.add_argument('--steps', default='')
    ap.add_argument('--reuse', action='store_true')
    ap.add_argument('--sched-only', action='store_true')
    ap.add_argument('--peer', action='store_true',
                    help='the peer check at each step --steps names, else at the first and last')
    ap.add_argument('--repeat', type=int, default=0, metavar='N',
                    help='then boot every cell N times a variant at the last step (test: '
                    'SCHED_TINIFY_REPEAT, default 5)')
    ap.add_argument('--kernel', default=os.environ.get('SCHED_TINIFY_KERNEL', ''),
                    help='the kernel packages (default: $SCHED_TINIFY_KERNEL, else all, in the '
                    'order of ci/matrix.json)')
    args = ap.parse_intermixed_args(argv)
    args.kinds = tuple(k for k in args.kinds.split(',') if k)
    # The main job: no target, kind, step or repeat named.
    args.main_job = args.command in ('run', 'judge') and not (
        args.targets or args.kinds or args.steps or args.repeat)
    # The test command's clock: from the start of scripts/test.sh.
    args.start = time.time() - args.elapsed
    run.catch_signals()
    try:
        args.data = config.load()
        kernels = config.kernels(args.data, args.kernel)
        if len(kernels) > 1 and (one := [v for v in ONE_KERNEL if os.environ.get(v)]):
            raise config.ConfigError(f'{", ".join(one)}: one kernel\'s, name it with --kernel')
        if args.command == 'ci':
            return ci.main()
        if args.command == 'list':
            # The targets asked for (--same-as: a cell's debug cells; --suites: with each suite of
            # mutants with one that runs in it), one a line, or as JSON for CI's job matrices.
            chosen = [(k, t) for k in kernels for t in config.targets(
                args.data, args.targets, args.kinds, k.package)
                      if not args.same_as or t.same_as == args.same_as]
            rows = [{'kernel': k.package, 'name': t.name, 'suite': os.path.basename(f),
                     'folder': os.path.relpath(f, config.REPO)}
                    for k, t in chosen for f in mutants.folders(mutants.folder(args.mutants, k))
                    if any(mutants.runs_in(m, t) for m in mutants.expand([f]))] \
                if args.suites else [{'kernel': k.package, 'name': t.name} for k, t in chosen]
            print('\n\n'.join(f'``{k.package}``:\n\n' + render.targets_rst(
                [t for kk, t in chosen if kk == k]) for k in kernels) if args.rst else json.dumps(
                rows, separators=(',', ':')) if args.json else '\n'.join(
                    ' '.join(list(r.values())[1:3]) for r in rows))
            return 0
        if args.command == 'info':
            # "kernels": PACKAGE VERSION lines; the others of one kernel.
            if args.paths == ['kernels']:
                print('\n'.join(f'{k.package} {k.version}' for k in kernels))
                return 0
            if len(kernels) != 1 or len(args.paths) != 1 or args.paths[0] not in (
                    'package', 'version', 'series', 'hook', 'patches'):
                raise config.ConfigError('info: kernels, or package|version|series|hook|patches '
                                         'of one --kernel')
            work = run.Work.from_env(kernels[0])
            print('\n'.join(config.read_series(work.series)) if args.paths == ['patches'] else
                  dict(kernels[0].__dict__, series=work.series)[args.paths[0]])
            return 0
    except (config.ConfigError, OSError, ValueError) as e:
        print(f'sched_tinify: error: {e}', file=sys.stderr)
        return 2
    rc = 0
    if args.command == 'test':
        # Every kernel set up first: checkpatch.sh reads each series in its tree, and git am of
        # each series onto its pristine tree is the first check of each.
        for kernel in kernels:
            print(f'\n== set-up: {kernel.package}: the kernel tree, the series applied as posted '
                  f'to the pristine tree (at {round(time.time() - args.start)} s)', flush=True)
            if rc := one_kernel(argparse.Namespace(**dict(vars(args), command='prepare')),
                                argv, kernel):
                return rc
    # The test command: the floor of every kernel, then the rest of each (docs/budget.rst).
    for args.phase in ('floor', 'rest') if args.command == 'test' and not args.no_matrix else [
            '']:
        for kernel in kernels:
            rc = max(rc, one_kernel(args, argv, kernel))
            if rc >= 128 or (args.phase == 'floor' and rc):  # stopped, or a static check failed
                break
            args.no_checks = True  # the test command's static checks cover every kernel
        if rc >= 128 or (args.phase == 'floor' and rc):
            break
    if args.command in ('run', 'judge', 'test') and not args.no_matrix:
        render.overview(os.path.dirname(run.Work.from_env(kernels[0]).results),
                        [k.package for k in kernels])
    return rc


def one_kernel(args, argv: List[str], kernel: config.Kernel) -> int:
    """The command for one kernel; its exit status."""
    try:
        targets = config.targets(args.data, args.targets, args.kinds, kernel.package)
        work = run.Work.from_env(kernel)
        if args.command in ('run', 'judge', 'mutants') and (args.command == 'mutants') != bool(
                args.paths):
            raise config.ConfigError('only mutants takes paths: folders, *.sed files or lists')
        main_job = args.main_job
        if main_job:
            args.repeat, args.peer = 10, True
        # Every command from here reads the steps: those of patches/ and kunit/ now (results, a
        # query, reads them as they are). An earlier run's report (and mutants' summary) would
        # stand for this one's.
        report_now = args.command in ('run', 'judge') or (args.command == 'test' and
                                                          not args.no_matrix)
        if args.command != 'results':
            work.lock(' '.join(['sched_tinify'] + argv))
            config.remove(*[os.path.join(work.results, n) for n in ['report.md', 'report.json',
                                                                    'junit'] * report_now +
                            ['mutants/summary.md'] * (args.command == 'mutants' or report_now
                                                      and (main_job or args.command == 'test'))])
            tree.prepare(work)
        if args.command == 'prepare':
            return 0
        every = config.read_steps(work.steps_file)
        wanted = [s for s in args.steps.split(',') if s]
        if unknown := [s for s in wanted if s not in dict(every)]:
            raise config.ConfigError(f'no step(s) {", ".join(unknown)} in {work.steps_file}')
        steps = [(s, sha) for s, sha in every if not wanted or s in wanted]
        args.peer_at = list(dict.fromkeys(steps if wanted else [every[0], every[-1]])) * args.peer
        kp = parse.parser(work.tree)
        if args.command == 'results':
            # The results of a target step as an expected file's lines.
            for t in targets:
                for step, sha in steps:
                    e = judge.entry(work, kp, t, step, sha)
                    print('\n'.join(f'{p}\t{s}\t{r}' if r else f'{p}\t{s}'
                                    for p, (s, r) in e['results'].items()) or
                          f'{step} {t.name}: {e["status"]}')
            return 0
        if args.command == 'mutants':
            return cmd_mutants(args, work, targets, every, kp, not args.judge_only)[0]
        if args.command == 'sizes':
            return cmd_sizes(args, work, steps if args.steps else [every[0], every[-1]])
        if args.command == 'test':
            return cmd_test(args, work, targets, every, kp)
        if args.command == 'run':
            cmd_run(args, work, targets, steps, kp)
        extra = every_mutant(args, work, targets, every, kp) if main_job else []
        # Judged against the baseline, whether it ran now or not.
        return report(args, work, targets, every[:1] + [s for s in steps if s != every[0]], kp,
                      extra=extra)
    except run.Stopped as e:
        print(f'sched_tinify: {e}: stopped', file=sys.stderr)
        return 128 + e.signum
    except tree.Red as e:
        print(f'sched_tinify: error: {e}', file=sys.stderr)
        return 1
    except (config.ConfigError, run.HarnessError, ValueError, OSError) as e:
        print(f'sched_tinify: error: {e}', file=sys.stderr)
        return 2
    except Exception:  # pylint: disable=broad-except
        # A bug of the harness is its failure, never a red run.
        traceback.print_exc()
        return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
