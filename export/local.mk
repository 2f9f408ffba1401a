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
	report/hist/hist.h \
	report/hist/filter.c \
	script/dsoname.h \
	script/dsoname.c
nodist_export_pexport_SOURCES = export/flamegraph-page.h
export_pexport_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
export_pexport_LDADD = $(SES_LIBS)

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
	tests/export-flamegraph-browser.test
TESTS += $(EXPORT_TESTS)
EXTRA_DIST += $(EXPORT_TESTS) tests/export/stackcollapse.py \
	tests/export/flamegraph.py
