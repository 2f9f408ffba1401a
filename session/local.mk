# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# session/: the analysis engine (time order, threads, maps, address
# resolution), a library between symbol/ and the tools.

noinst_LIBRARIES += session/libpdsession.a
session_libpdsession_a_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) $(XXHASH_CFLAGS)
session_libpdsession_a_SOURCES = \
	session/session.h \
	session/model.h \
	session/session-int.h \
	session/session.c \
	session/arena.c \
	session/ordered.c \
	session/thread.c \
	session/maps.c \
	session/resolve.c \
	session/unwind.h \
	session/unwind.c \
	session/unwind-rules.h \
	session/unwind-rules.c \
	session/ahead.h \
	session/ahead.c \
	session/hint.h \
	session/hint.c \
	session/lbr.c \
	session/branch-frames.c
session_libpdsession_a_SOURCES += session/archive.h session/archive.c

SES_LIBS = session/libpdsession.a $(SYM_LIBS) $(PDATA_LIBS) lib/libpdutil.a \
	$(XXHASH_LIBS)

# pd-mkorder: a perf.data file out of time order in every way perf's
# queue treats specially, for tests/session-order.test.
check_PROGRAMS += tests/tools/pd-mkorder
tests_tools_pd_mkorder_SOURCES = tests/tools/pd-mkorder.c \
	tests/tools/synth-records.h
tests_tools_pd_mkorder_LDADD = $(PDATA_LIBS) lib/libpdutil.a

# pd-mkexec32: a --call-graph dwarf recording of a 64-bit process that
# exec's a 32-bit program, for tests/report-dwarf-exec32.test.
check_PROGRAMS += tests/tools/pd-mkexec32
tests_tools_pd_mkexec32_SOURCES = tests/tools/pd-mkexec32.c \
	tests/tools/synth-records.h
tests_tools_pd_mkexec32_LDADD = $(PDATA_LIBS) lib/libpdutil.a

# pd-mkarm64: a --call-graph dwarf recording of an arm64 program, for
# tests/report-dwarf-arm64.test.
check_PROGRAMS += tests/tools/pd-mkarm64
tests_tools_pd_mkarm64_SOURCES = tests/tools/pd-mkarm64.c \
	tests/tools/synth-records.h
tests_tools_pd_mkarm64_LDADD = $(PDATA_LIBS) lib/libpdutil.a

# pd-jit: code in an anonymous executable map named by /tmp/perf-PID.map.
check_PROGRAMS += tests/tools/pd-jit
tests_tools_pd_jit_SOURCES = tests/tools/pd-jit.c

# the session's maps, queue and strings on their own
check_PROGRAMS += tests/unit/test-session
tests_unit_test_session_SOURCES = tests/unit/test-session.c tests/unit/t.h
tests_unit_test_session_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
tests_unit_test_session_LDADD = $(SES_LIBS)

# the public API: event order, side-band records, the map view, stack ids
check_PROGRAMS += tests/unit/test-session-api
tests_unit_test_session_api_SOURCES = tests/unit/test-session-api.c tests/unit/t.h
tests_unit_test_session_api_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
tests_unit_test_session_api_LDADD = $(SES_LIBS)

SESSION_TESTS = \
	tests/session-branches.test \
	tests/session-order.test \
	tests/session-live.test \
	tests/session-fixtures.test
TESTS += tests/unit/test-session tests/unit/test-session-api $(SESSION_TESTS)
EXTRA_DIST += $(SESSION_TESTS)
