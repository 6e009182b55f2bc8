# SPDX-License-Identifier: GPL-2.0
"""sched-tinify's harness: one pipeline, one judge.

Built the way tools/testing/kunit/kunit_tool is built:

- config: ci/matrix.json (checked against ci/matrix.schema.json) as a list
  of targets -- a cell, a tiny cell, a debug cell or a build-only
  configuration is one Target -- and the steps of the series;
- tree: the kernel tree, its steps (the pristine tree plus patches 1..N
  exactly as posted, then the tests laid on top) and their checkout;
- run: run(target, step) builds and boots one target at one step and
  writes one result.json, stored under the digest of every input that
  decides it (the step's commit, the kunitconfig fragments, QEMU and
  compiler versions, ...): a result is fresh when its key is the current
  one and it is complete, and that is the only freshness rule;
- parse: KTAP (with the tree's kunit_parser), kernel splats, kmemleak
  reports, W=1 warnings;
- judge: one function, a result against its reference (the baseline, an
  expected file, the plain cell, a mutant's control);
- render: report.md, report.json, JUnit.
"""
