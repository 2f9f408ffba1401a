# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: writer tests.

# test-writer: pd_writer and pd_feature_encode on built metadata, read
# back through pd_reader (file, pipe and not-finalised outputs).
check_PROGRAMS += tests/unit/test-writer
tests_unit_test_writer_SOURCES = tests/unit/test-writer.c tests/unit/t.h
tests_unit_test_writer_LDADD = $(PDATA_LIBS)

# test-zwriter: pd_writer_write_compressed(), the -z marks of
# pd_writer_sync() and pd_writer_salvage() with them.
check_PROGRAMS += tests/unit/test-zwriter
tests_unit_test_zwriter_SOURCES = tests/unit/test-zwriter.c tests/unit/t.h
tests_unit_test_zwriter_LDADD = $(PDATA_LIBS)

# test-dwriter: the directory modes, opts.dir (the data file's marks
# carry DIR_FORMAT) and opts.bare (a data.N file), read back as a
# directory, finished and killed.
check_PROGRAMS += tests/unit/test-dwriter
tests_unit_test_dwriter_SOURCES = tests/unit/test-dwriter.c tests/unit/t.h
tests_unit_test_dwriter_LDADD = $(PDATA_LIBS)

# pd-writetest: copies a perf.data file through pd_reader and pd_writer,
# and checks encode(parse(section)) against a file's feature sections.
check_PROGRAMS += tests/tools/pd-writetest
tests_tools_pd_writetest_SOURCES = tests/tools/pd-writetest.c
tests_tools_pd_writetest_LDADD = $(PDATA_LIBS)

WRITER_SCRIPT_TESTS = \
	tests/writer-copy.test \
	tests/writer-fixtures.test

TESTS += tests/unit/test-writer tests/unit/test-zwriter tests/unit/test-dwriter \
	$(WRITER_SCRIPT_TESTS)
EXTRA_DIST += $(WRITER_SCRIPT_TESTS)
