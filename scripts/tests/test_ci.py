# SPDX-License-Identifier: GPL-2.0
"""Tests of sched_tinify/ci.py: the CI definition, parsed."""

import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from sched_tinify import ci as ci_check  # noqa: E402 pylint: disable=wrong-import-position

WORKFLOW = ci_check.WORKFLOW


class CiCheckTest(unittest.TestCase):

    def setUp(self):
        with open(WORKFLOW, encoding='utf-8') as f:
            self.wf = yaml.safe_load(f)

    def variant(self):
        return copy.deepcopy(self.wf)

    def test_the_project_workflow_holds(self):
        self.assertEqual(ci_check.check(self.wf), [])
        with mock.patch('sys.stdout'):
            self.assertEqual(ci_check.main(), 0)

    def test_listing_targets_needs_no_yaml(self):
        """CI's cells job lists the targets with python3 and python3-jsonschema alone."""
        code = ('import sys; sys.modules["yaml"] = None\n'
                'from sched_tinify.__main__ import main\n'
                'sys.exit(main(["list", "--kinds", "cell,tiny", "--suites", "--json"]))')
        proc = subprocess.run([sys.executable, '-c', code], cwd=os.path.dirname(os.path.dirname(
            os.path.dirname(WORKFLOW))), capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = json.loads(proc.stdout)
        self.assertIn({'kernel': 'linux-source-6.1', 'name': 'arm-up', 'suite': 'sched_policy',
                       'folder': 'kunit/mutants/sched_policy'}, rows)
        # Each kernel's mutants are its own folder's: their steps are those of its series.
        self.assertIn({'kernel': 'linux-source-6.12', 'name': 'arm-smp', 'suite': 'sched_dl_bw',
                       'folder': 'kunit/mutants-6.12/sched_dl_bw'}, rows)

    def test_yamllint_problems_are_problems(self):
        """Valid YAML that yamllint refuses (a line of 121 characters)."""
        with tempfile.NamedTemporaryFile('w', suffix='.yml') as f:
            with open(WORKFLOW, encoding='utf-8') as wf:
                f.write(wf.read() + '#' + ' x' * 60 + '\n')
            f.flush()
            with mock.patch('sys.stdout'), mock.patch('sys.stderr') as err:
                self.assertEqual(ci_check.main(f.name), 1)
            self.assertIn('line too long', ''.join(str(c) for c in err.mock_calls))

    def test_the_mutants_take_their_kernel_s_folder(self):
        wf = self.variant()
        wf['jobs']['mutants']['env']['FOLDER'] = 'kunit/mutants/${{ matrix.target.suite }}'
        self.assertEqual(ci_check.check(wf), ["job mutants: its FOLDER is not its kernel's "
                                              "suite folder (matrix.target.folder)"])

    def test_the_ccache_is_capped_and_keyed_by_its_inputs(self):
        wf = self.variant()
        del wf['env']['CCACHE_MAXSIZE']
        for step in wf['jobs']['tiny']['steps']:
            if str(step.get('uses', '')).startswith('actions/cache/save'):
                step['with']['key'] = '${{ env.CACHE }}/t-${{ github.run_id }}'
        self.assertEqual(ci_check.check(wf), [
            'no CCACHE_MAXSIZE for every job (env:)',
            'ccache saved under a key not of the inputs: ${{ env.CACHE }}/t-${{ github.run_id }}'])

    def test_a_command_in_a_comment_does_not_count(self):
        wf = self.variant()
        for step in wf['jobs']['tiny']['steps']:
            if 'scripts/matrix.sh --kernel' in str(step.get('run', '')):
                step['run'] = '# scripts/matrix.sh --kernel "$KERNEL" --targets "$TARGET"\ntrue'
        self.assertIn('job tiny: no run: command with scripts/matrix.sh --kernel "$KERNEL" '
                      '--targets "$TARGET"', ci_check.check(wf))

    def test_one_job_per_target_from_the_matrix_file(self):
        for job in ('builds', 'mutants', 'upstream'):
            with self.subTest(job):
                wf = self.variant()
                wf['jobs'][job]['strategy']['matrix']['target'] = [{'name': 'arm-tiny'}]
                self.assertTrue(any(p.startswith(f'job {job}: its matrix does not come from')
                                    for p in ci_check.check(wf)))

    def test_the_ccache_is_saved_whatever_the_verdict(self):
        wf = self.variant()
        steps = wf['jobs']['builds']['steps']
        save = next(s for s in steps if str(s.get('uses', '')).startswith('actions/cache/save'))
        del save['if']
        self.assertIn('job builds: restores the ccache, never saves it if: always()',
                      ci_check.check(wf))
        wf = self.variant()
        steps = wf['jobs']['tiny']['steps']
        for s in steps:
            if str(s.get('uses', '')).startswith('actions/cache/restore'):
                s['uses'] = 'actions/cache@v4'
        self.assertTrue(any(p.startswith('job tiny: actions/cache saves only after a green run')
                            for p in ci_check.check(wf)))

    def test_paths_concurrency_and_timeouts(self):
        wf = self.variant()
        on = wf.get('on', wf.get(True))
        del on['push']['paths']
        del wf['concurrency']
        del wf['jobs']['builds']['timeout-minutes']
        problems = ci_check.check(wf)
        self.assertIn('on.push: no paths filter for ' + ', '.join(ci_check.PATHS), problems)
        self.assertIn('no concurrency group', problems)
        self.assertIn('job builds: no timeout-minutes', problems)

    def test_nothing_skips_or_hides_a_run(self):
        """An if:, a continue-on-error: or an || true on a job that runs the harness, or on a step
        that runs scripts/ or sched_tinify, is refused; if: success(), continue-on-error: false,
        the report steps' if: always() and a comment naming scripts/ there are not."""
        self.assertEqual(ci_check.check(self.wf), [])

        def harness_step(steps, pattern):
            return next(s for s in steps if pattern in str(s.get('run', '')))
        for job, where, change in (
                ('static', 'step', {'if': 'false'}), ('tiny', 'step', {'continue-on-error': True}),
                ('mutants', 'job', {'if': 'false'}), ('builds', 'job', {'continue-on-error': 1}),
                ('cells', 'sched_tinify', {'if': "github.event_name == 'push'"}),
                ('cell', 'step', {'run': 'scripts/matrix.sh --targets "$CELL${dbg:+,$dbg}" '
                                         '--repeat 10 || true'}),
                ('upstream', 'step', {'run': 'scripts/matrix.sh --kinds upstream --peer; true'})):
            with self.subTest(job=job, where=where, change=change):
                wf = self.variant()
                steps = wf['jobs'][job]['steps']
                (wf['jobs'][job] if where == 'job' else harness_step(
                    steps, 'scripts/' if where == 'step' else where)).update(change)
                self.assertIn(f'job {job}: an if:, continue-on-error: or || true may hide its run',
                              ci_check.check(wf))
        wf = self.variant()
        for job in wf['jobs'].values():
            job.update({'if': 'success()', 'continue-on-error': False})
            for step in job.get('steps') or []:
                if 'GITHUB_STEP_SUMMARY' in str(step.get('run', '')):
                    step['run'] = '# not scripts/matrix.sh\n' + step['run']
        self.assertEqual(ci_check.check(wf), [])

if __name__ == '__main__':
    unittest.main()
