# SPDX-License-Identifier: GPL-2.0
"""sched-tinify's harness: one pipeline, one judge, built the way
tools/testing/kunit/kunit_tool is (docs/harness.rst names the modules)."""
