# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/: the session (time order, threads, maps, address resolution).

report_preport_SOURCES += \
	report/model.h \
	report/session.h

report_preport_SOURCES += \
	report/session-int.h \
	report/session.c \
	report/session-arena.c \
	report/ordered.c \
	report/thread.c \
	report/maps.c \
	report/resolve.c

# pd-resolve: the session's samples as `perf script` prints them, for
# the session-*.test comparisons with perf.
check_PROGRAMS += tests/tools/pd-resolve
tests_tools_pd_resolve_SOURCES = \
	tests/tools/pd-resolve.c \
	report/session.h \
	report/model.h \
	report/session-int.h \
	report/session.c \
	report/session-arena.c \
	report/ordered.c \
	report/thread.c \
	report/maps.c \
	report/resolve.c
tests_tools_pd_resolve_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
tests_tools_pd_resolve_LDADD = $(SYM_LIBS) $(PDATA_LIBS) lib/libpdutil.a $(XXHASH_LIBS)

# pd-mkorder: a perf.data file out of time order in every way perf's
# queue treats specially, for tests/session-order.test.
check_PROGRAMS += tests/tools/pd-mkorder
tests_tools_pd_mkorder_SOURCES = tests/tools/pd-mkorder.c
tests_tools_pd_mkorder_LDADD = $(PDATA_LIBS) lib/libpdutil.a

# pd-jit: code in an anonymous executable map named by /tmp/perf-PID.map.
check_PROGRAMS += tests/tools/pd-jit
tests_tools_pd_jit_SOURCES = tests/tools/pd-jit.c

# the session's maps, queue and strings on their own
check_PROGRAMS += tests/unit/test-session
tests_unit_test_session_SOURCES = \
	tests/unit/test-session.c \
	tests/unit/t.h \
	report/session-int.h \
	report/session-arena.c \
	report/ordered.c \
	report/maps.c
tests_unit_test_session_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
tests_unit_test_session_LDADD = $(PDATA_LIBS) lib/libpdutil.a $(XXHASH_LIBS)

SESSION_TESTS = \
	tests/session-branches.test \
	tests/session-order.test \
	tests/session-live.test \
	tests/session-fixtures.test
TESTS += tests/unit/test-session $(SESSION_TESTS)
EXTRA_DIST += $(SESSION_TESTS)
