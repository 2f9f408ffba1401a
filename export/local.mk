# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# export/: pexport, a recording in other tools' formats.

bin_PROGRAMS += export/pexport
export_pexport_SOURCES = \
	export/export.h \
	export/pexport.c \
	export/json.c \
	export/stacks.h \
	export/stacks.c \
	export/collapsed.c \
	export/speedscope.c \
	export/flametree.h \
	export/flametree.c \
	export/flamegraph.c \
	export/pprof.h \
	export/pprof.c \
	export/pprof-write.c \
	report/hist/hist.h \
	report/hist/filter.c \
	script/dsoname.h \
	script/dsoname.c
nodist_export_pexport_SOURCES = export/flamegraph-page.h $(PPROF_PB)
export_pexport_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)
export_pexport_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS) $(PROTOBUF_C_CFLAGS) \
	$(ZLIB_CFLAGS)
export_pexport_LDADD = $(SES_LIBS) $(PROTOBUF_C_LIBS) $(ZLIB_LIBS)

# pprof's messages, made by protoc-c from upstream's profile.proto:
# github.com/google/pprof, proto/profile.proto at commit b9395ee17fa0,
# unchanged, under the Apache License 2.0 its header states.
PPROF_PB = export/profile.pb-c.c export/profile.pb-c.h
BUILT_SOURCES += $(PPROF_PB)
CLEANFILES += $(PPROF_PB)
EXTRA_DIST += export/profile.proto
export/profile.pb-c.c: $(srcdir)/export/profile.proto
	$(AM_V_GEN)$(MKDIR_P) export && \
	$(PROTOC_C) --proto_path=$(srcdir)/export --c_out=export \
		$(srcdir)/export/profile.proto
# one run of protoc-c writes both (automake's idiom for two outputs)
export/profile.pb-c.h: export/profile.pb-c.c
	@test -f $@ || { rm -f export/profile.pb-c.c; \
		$(MAKE) $(AM_MAKEFLAGS) export/profile.pb-c.c; }

# The flame graph's page, as a C string.
export/flamegraph-page.h: export/flamegraph.html
	$(AM_V_GEN)$(MKDIR_P) export && { \
	  echo '/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */'; \
	  echo '/* export/flamegraph.html as a string (export/local.mk) */'; \
	  echo 'static const char exp_flamegraph_page[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' \
	    $(srcdir)/export/flamegraph.html; \
	  echo ';'; } > $@-t && mv $@-t $@
export/pexport-flamegraph.$(OBJEXT): export/flamegraph-page.h
CLEANFILES += export/flamegraph-page.h
EXTRA_DIST += export/flamegraph.html

# pexport's outputs against perf's converters.
EXPORT_TESTS = \
	tests/export-json.test \
	tests/export-collapsed.test \
	tests/export-flamegraph.test \
	tests/export-flamegraph-browser.test \
	tests/export-pprof.test
TESTS += $(EXPORT_TESTS)
EXTRA_DIST += $(EXPORT_TESTS) tests/export/stackcollapse.py \
	tests/export/speedscope-schema.json tests/export/README.md \
	tests/export/flamegraph.py
