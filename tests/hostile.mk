# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: what the tools trust, what they never clobber (doc/security.md),
# and what they say about bad command-line values.

HOSTILE_TESTS = \
	tests/hostile-inputs.test \
	tests/cli-errors.test

TESTS += $(HOSTILE_TESTS)
EXTRA_DIST += $(HOSTILE_TESTS) tests/cli-errors.tab
