# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/fuzz/: the libFuzzer targets (tests/fuzz/README.md).  They are
# built with clang, outside automake's CC, from the same sources as the
# libraries: each source is compiled once under tests/fuzz/obj/ with
# coverage and sanitizers, and each target links the objects it needs.

FUZZ_TARGETS = reader decode writer session script archive elf

FUZZ_CORPORA = $(FUZZ_TARGETS:%=tests/fuzz/corpus/%)
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/fuzz.h \
	$(FUZZ_TARGETS:%=tests/fuzz/fuzz-%.c) $(FUZZ_CORPORA) tests/fuzz/repro \
	tests/fuzz/campaign.sh tests/fuzz/targets.sh

# `make fuzz FUZZ_SECONDS=N`: every target N seconds (FUZZ_JOBS at a time)
# over a corpus kept in FUZZ_WORK (outside the source tree), then one
# line per target.
FUZZ_SECONDS = 600
FUZZ_JOBS = 1
FUZZ_WORK = $(abs_top_builddir)/fuzz-work

if HAVE_FUZZER
FUZZ_PDATA_C = $(filter %.c,$(format_libpdata_a_SOURCES))
FUZZ_UTIL_C = $(filter %.c,$(lib_libpdutil_a_SOURCES))
FUZZ_SYM_C = $(filter %.c,$(symbol_libpdsym_a_SOURCES)) $(FUZZ_UTIL_C) \
	$(FUZZ_PDATA_C)
FUZZ_REPORT_C = $(filter-out report/preport.c,$(filter %.c,$(report_preport_SOURCES))) \
	$(filter %.c,$(session_libpdsession_a_SOURCES)) $(FUZZ_SYM_C)
FUZZ_SCRIPT_C = $(filter-out script/main.c,$(filter %.c,$(script_pscript_SOURCES))) \
	$(filter %.c,$(session_libpdsession_a_SOURCES)) $(FUZZ_SYM_C)

FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	-I$(top_builddir) -I$(top_srcdir) -I$(top_srcdir)/format/include \
	$(ZSTD_CFLAGS) $(LIBELF_CFLAGS) $(LIBDW_CFLAGS) $(XXHASH_CFLAGS) \
	$(LIBARCHIVE_CFLAGS) $(LIBDEBUGINFOD_CFLAGS) $(LIBTRACEEVENT_CFLAGS) \
	$(ZYDIS_CFLAGS)
FUZZ_LIBS = $(LIBDW_LIBS) $(LIBELF_LIBS) $(DL_LIBS) \
	$(XXHASH_LIBS) $(ZSTD_LIBS) $(LIBTRACEEVENT_LIBS) \
	$(ZYDIS_LIBS) -lpthread -lm
FUZZ_LINK = $(AM_V_CCLD)$(FUZZ_CC) -g -fsanitize=fuzzer,address,undefined \
	-o $@ $^ $(FUZZ_LIBS)

tests/fuzz/obj/%.o: $(top_srcdir)/%.c config.h
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

-include $(wildcard tests/fuzz/obj/*/*.d tests/fuzz/obj/*/*/*.d tests/fuzz/obj/*/*/*/*.d)

# the objects of sources $(2) under tests/fuzz/$(1)/
fuzz_objs = $(patsubst %.c,tests/fuzz/$(1)/%.o,$(2))

FUZZ_reader_C = tests/fuzz/fuzz-reader.c $(FUZZ_PDATA_C)
FUZZ_decode_C = tests/fuzz/fuzz-decode.c $(FUZZ_PDATA_C)
FUZZ_writer_C = tests/fuzz/fuzz-writer.c $(FUZZ_PDATA_C)
FUZZ_archive_C = tests/fuzz/fuzz-archive.c $(FUZZ_SYM_C)
FUZZ_elf_C = tests/fuzz/fuzz-elf.c $(FUZZ_SYM_C)
FUZZ_session_C = tests/fuzz/fuzz-session.c $(FUZZ_REPORT_C)
FUZZ_script_C = tests/fuzz/fuzz-script.c $(FUZZ_SCRIPT_C)

tests/fuzz/fuzz-reader: $(call fuzz_objs,obj,$(FUZZ_reader_C))
	$(FUZZ_LINK)
tests/fuzz/fuzz-decode: $(call fuzz_objs,obj,$(FUZZ_decode_C))
	$(FUZZ_LINK)
tests/fuzz/fuzz-writer: $(call fuzz_objs,obj,$(FUZZ_writer_C))
	$(FUZZ_LINK)
tests/fuzz/fuzz-archive: $(call fuzz_objs,obj,$(FUZZ_archive_C))
	$(FUZZ_LINK)
tests/fuzz/fuzz-elf: $(call fuzz_objs,obj,$(FUZZ_elf_C))
	$(FUZZ_LINK)
tests/fuzz/fuzz-session: $(call fuzz_objs,obj,$(FUZZ_session_C))
	$(FUZZ_LINK)
tests/fuzz/fuzz-script: $(call fuzz_objs,obj,$(FUZZ_script_C))
	$(FUZZ_LINK)

# The same targets built for source-based coverage (llvm-cov), without
# sanitizers: `make fuzz` measures the lines of each target's own files
# (tests/fuzz/targets.sh) that its corpus reaches.
FUZZ_COV_CFLAGS = -g -O1 -fsanitize=fuzzer-no-link \
	-fprofile-instr-generate -fcoverage-mapping \
	$(filter-out -g -O1 -fsanitize=%,$(FUZZ_CFLAGS))
FUZZ_COV_LINK = $(AM_V_CCLD)$(FUZZ_CC) -g -fsanitize=fuzzer \
	-fprofile-instr-generate -o $@ $^ $(FUZZ_LIBS)

tests/fuzz/cov/%.o: $(top_srcdir)/%.c config.h
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_COV_CFLAGS) -MMD -MP -c -o $@ $<

-include $(wildcard tests/fuzz/cov/*/*.d tests/fuzz/cov/*/*/*.d tests/fuzz/cov/*/*/*/*.d)

tests/fuzz/cov/fuzz-reader: $(call fuzz_objs,cov,$(FUZZ_reader_C))
	$(FUZZ_COV_LINK)
tests/fuzz/cov/fuzz-decode: $(call fuzz_objs,cov,$(FUZZ_decode_C))
	$(FUZZ_COV_LINK)
tests/fuzz/cov/fuzz-writer: $(call fuzz_objs,cov,$(FUZZ_writer_C))
	$(FUZZ_COV_LINK)
tests/fuzz/cov/fuzz-archive: $(call fuzz_objs,cov,$(FUZZ_archive_C))
	$(FUZZ_COV_LINK)
tests/fuzz/cov/fuzz-elf: $(call fuzz_objs,cov,$(FUZZ_elf_C))
	$(FUZZ_COV_LINK)
tests/fuzz/cov/fuzz-session: $(call fuzz_objs,cov,$(FUZZ_session_C))
	$(FUZZ_COV_LINK)
tests/fuzz/cov/fuzz-script: $(call fuzz_objs,cov,$(FUZZ_script_C))
	$(FUZZ_COV_LINK)

if HAVE_LLVM_COV
FUZZ_COV_BINS = $(FUZZ_TARGETS:%=tests/fuzz/cov/fuzz-%)
endif

FUZZ_BINS = $(FUZZ_TARGETS:%=tests/fuzz/fuzz-%)
check_SCRIPTS = $(FUZZ_BINS)
CLEANFILES += $(FUZZ_BINS)

clean-local: clean-fuzz
clean-fuzz:
	-rm -rf tests/fuzz/obj tests/fuzz/cov

fuzz: $(FUZZ_BINS) $(FUZZ_COV_BINS)
	FUZZ_DIR='$(abs_top_builddir)/tests/fuzz' FIXTURES='$(abs_top_srcdir)/tests/fixtures' \
	FUZZ_JOBS='$(FUZZ_JOBS)' LLVM_COV='$(LLVM_COV)' LLVM_PROFDATA='$(LLVM_PROFDATA)' \
	$(SHELL) $(top_srcdir)/tests/fuzz/campaign.sh '$(FUZZ_WORK)' '$(FUZZ_SECONDS)' \
		'$(abs_top_srcdir)/tests/fuzz' $(FUZZ_TARGETS)
else
fuzz:
	@echo "make fuzz: configure found no clang that links libFuzzer (Debian: clang, libclang-rt-14-dev)" >&2; exit 1
endif
.PHONY: fuzz clean-fuzz
