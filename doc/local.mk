# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
man1_MANS += doc/preport.1
CLEANFILES += doc/preport.1
EXTRA_DIST += doc/preport.1.in doc/perf-data-subset.md doc/errata.md doc/HACKING.md doc/symbol-archive.md doc/offline.md doc/security.md
# the README's picture of pexport --to flamegraph (python3, --call-graph dwarf)
EXTRA_DIST += doc/flamegraph.png
# the documents the code comments cite by section (tests/doc-sections.test)
EXTRA_DIST += doc/perf-data-format.md doc/perf-records.md

doc/preport.1: doc/preport.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) doc && sed -e 's|@VERSION[@]|$(VERSION)|g' $(srcdir)/doc/preport.1.in > $@

man1_MANS += doc/precord.1
CLEANFILES += doc/precord.1
EXTRA_DIST += doc/precord.1.in

doc/precord.1: doc/precord.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) doc && sed -e 's|@VERSION[@]|$(VERSION)|g' $(srcdir)/doc/precord.1.in > $@

man1_MANS += doc/pscript.1
CLEANFILES += doc/pscript.1
EXTRA_DIST += doc/pscript.1.in

doc/pscript.1: doc/pscript.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) doc && sed -e 's|@VERSION[@]|$(VERSION)|g' $(srcdir)/doc/pscript.1.in > $@

man1_MANS += doc/pexport.1
CLEANFILES += doc/pexport.1
EXTRA_DIST += doc/pexport.1.in

doc/pexport.1: doc/pexport.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) doc && sed -e 's|@VERSION[@]|$(VERSION)|g' $(srcdir)/doc/pexport.1.in > $@

man1_MANS += doc/pdiff.1
CLEANFILES += doc/pdiff.1
EXTRA_DIST += doc/pdiff.1.in

doc/pdiff.1: doc/pdiff.1.in Makefile
	$(AM_V_GEN)$(MKDIR_P) doc && sed -e 's|@VERSION[@]|$(VERSION)|g' $(srcdir)/doc/pdiff.1.in > $@
