# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/progs/: small workloads with known hot functions, profiled by the
# live record and report tests ($PROGS in the tests' environment).
#
# They are built without sanitizers, whatever configure was told, so that
# their profiles hold only their own functions: each target's CFLAGS and
# LDFLAGS replace AM_CFLAGS and AM_LDFLAGS.  Frame pointers are kept and
# sibling calls turned off so that every caller is on the stack; hot-nofp
# is the same program without frame pointers, and hot-dframe without
# frame pointers and with its CFI only in .debug_frame (no unwind tables).  PROGS_LEAF_FRAMES makes the
# hot leaf functions set up a frame too (GCC omits it in leaves even with
# -fno-omit-frame-pointer), or their callers would be missing from every
# frame-pointer callchain.

PROGS_FP_FLAGS = $(WARN_CFLAGS) -O2 -g -fno-omit-frame-pointer -DPROGS_LEAF_FRAMES -fno-optimize-sibling-calls
PROGS_NOFP_FLAGS = $(WARN_CFLAGS) -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls
PROGS_LINK_FLAGS = -Wl,--build-id
PROGS_SO_FLAGS = $(PROGS_FP_FLAGS) -fPIC

check_PROGRAMS += \
	tests/progs/hot \
	tests/progs/hot-nofp \
	tests/progs/hot-dframe \
	tests/progs/threads-nofp \
	tests/progs/recurse-nofp \
	tests/progs/sigframe \
	tests/progs/nocfi \
	tests/progs/rbxcfa \
	tests/progs/tmpl \
	tests/progs/libpdlinked-nofp.so \
	tests/progs/linked-nofp \
	tests/progs/sysloop \
	tests/progs/threads \
	tests/progs/recurse \
	tests/progs/maze \
	tests/progs/forkexec \
	tests/progs/dlopen \
	tests/progs/libpdhot.so \
	tests/progs/libpdlinked.so \
	tests/progs/linked \
	tests/progs/demo \
	tests/progs/inlined \
	tests/progs/inlined-nofp

tests_progs_hot_SOURCES = tests/progs/hot.c tests/progs/progs.h
tests_progs_hot_CFLAGS = $(PROGS_FP_FLAGS)
tests_progs_hot_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_hot_nofp_SOURCES = tests/progs/hot.c tests/progs/progs.h
tests_progs_hot_nofp_CFLAGS = $(PROGS_NOFP_FLAGS)
tests_progs_hot_nofp_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_hot_dframe_SOURCES = tests/progs/hot.c tests/progs/progs.h
tests_progs_hot_dframe_CFLAGS = $(PROGS_NOFP_FLAGS) -fno-asynchronous-unwind-tables -fno-unwind-tables
tests_progs_hot_dframe_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_sysloop_SOURCES = tests/progs/sysloop.c tests/progs/progs.h
tests_progs_sysloop_CFLAGS = $(PROGS_FP_FLAGS)
tests_progs_sysloop_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_threads_SOURCES = tests/progs/threads.c tests/progs/progs.h
tests_progs_threads_CFLAGS = $(PROGS_FP_FLAGS) -pthread
tests_progs_threads_LDFLAGS = $(PROGS_LINK_FLAGS) -pthread

tests_progs_recurse_SOURCES = tests/progs/recurse.c tests/progs/progs.h
tests_progs_recurse_CFLAGS = $(PROGS_FP_FLAGS)
tests_progs_recurse_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_maze_SOURCES = tests/progs/maze.c tests/progs/progs.h
tests_progs_maze_CFLAGS = $(PROGS_FP_FLAGS)
tests_progs_maze_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_forkexec_SOURCES = tests/progs/forkexec.c tests/progs/progs.h
tests_progs_forkexec_CFLAGS = $(PROGS_FP_FLAGS)
tests_progs_forkexec_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_dlopen_SOURCES = tests/progs/dlopen.c tests/progs/progs.h
tests_progs_dlopen_CFLAGS = $(PROGS_FP_FLAGS)
tests_progs_dlopen_LDFLAGS = $(PROGS_LINK_FLAGS)
tests_progs_dlopen_LDADD = -ldl

# Shared libraries, built as programs linked with -shared (no libtool).
tests_progs_libpdhot_so_SOURCES = tests/progs/libpdhot.c tests/progs/progs.h
tests_progs_libpdhot_so_CFLAGS = $(PROGS_SO_FLAGS)
tests_progs_libpdhot_so_LDFLAGS = $(PROGS_LINK_FLAGS) -shared -Wl,-soname,libpdhot.so

tests_progs_libpdlinked_so_SOURCES = tests/progs/libpdlinked.c tests/progs/progs.h
tests_progs_libpdlinked_so_CFLAGS = $(PROGS_SO_FLAGS)
tests_progs_libpdlinked_so_LDFLAGS = $(PROGS_LINK_FLAGS) -shared -Wl,-soname,libpdlinked.so

tests_progs_linked_SOURCES = tests/progs/linked.c tests/progs/progs.h
tests_progs_linked_CFLAGS = $(PROGS_FP_FLAGS)
tests_progs_linked_LDFLAGS = $(PROGS_LINK_FLAGS) -Wl,-rpath,'$$ORIGIN'
tests_progs_linked_LDADD = tests/progs/libpdlinked.so

tests_progs_demo_SOURCES = tests/progs/demo.c tests/progs/progs.h
tests_progs_demo_CFLAGS = $(PROGS_FP_FLAGS)
tests_progs_demo_LDFLAGS = $(PROGS_LINK_FLAGS)

# Without frame pointers, for --call-graph dwarf: threads, recursion, a
# signal handler's frame, C++ templates, a shared library through the PLT.
tests_progs_threads_nofp_SOURCES = tests/progs/threads.c tests/progs/progs.h
tests_progs_threads_nofp_CFLAGS = $(PROGS_NOFP_FLAGS) -pthread
tests_progs_threads_nofp_LDFLAGS = $(PROGS_LINK_FLAGS) -pthread

tests_progs_recurse_nofp_SOURCES = tests/progs/recurse.c tests/progs/progs.h
tests_progs_recurse_nofp_CFLAGS = $(PROGS_NOFP_FLAGS)
tests_progs_recurse_nofp_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_sigframe_SOURCES = tests/progs/sigframe.c tests/progs/progs.h
tests_progs_sigframe_CFLAGS = $(PROGS_NOFP_FLAGS)
tests_progs_sigframe_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_nocfi_SOURCES = tests/progs/nocfi.c tests/progs/progs.h
tests_progs_nocfi_CFLAGS = $(PROGS_NOFP_FLAGS)
tests_progs_nocfi_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_rbxcfa_SOURCES = tests/progs/rbxcfa.c tests/progs/progs.h
tests_progs_rbxcfa_CFLAGS = $(PROGS_NOFP_FLAGS)
tests_progs_rbxcfa_LDFLAGS = $(PROGS_LINK_FLAGS)

# C++: g++ takes none of the C-only warnings of WARN_CFLAGS
tests_progs_tmpl_SOURCES = tests/progs/tmpl.cc tests/progs/progs.h
tests_progs_tmpl_CXXFLAGS = -Wall -Wextra -Werror -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls
tests_progs_tmpl_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_libpdlinked_nofp_so_SOURCES = tests/progs/libpdlinked.c tests/progs/progs.h
tests_progs_libpdlinked_nofp_so_CFLAGS = $(PROGS_NOFP_FLAGS) -fPIC
tests_progs_libpdlinked_nofp_so_LDFLAGS = $(PROGS_LINK_FLAGS) -shared -Wl,-soname,libpdlinked-nofp.so

tests_progs_linked_nofp_SOURCES = tests/progs/linked.c tests/progs/progs.h
tests_progs_linked_nofp_CFLAGS = $(PROGS_NOFP_FLAGS)
tests_progs_linked_nofp_LDFLAGS = $(PROGS_LINK_FLAGS) -Wl,-rpath,'$$ORIGIN'
tests_progs_linked_nofp_LDADD = tests/progs/libpdlinked-nofp.so

tests_progs_inlined_SOURCES = tests/progs/inlined.c tests/progs/progs.h
tests_progs_inlined_CFLAGS = $(PROGS_FP_FLAGS)
tests_progs_inlined_LDFLAGS = $(PROGS_LINK_FLAGS)

tests_progs_inlined_nofp_SOURCES = tests/progs/inlined.c tests/progs/progs.h
tests_progs_inlined_nofp_CFLAGS = $(PROGS_NOFP_FLAGS)
tests_progs_inlined_nofp_LDFLAGS = $(PROGS_LINK_FLAGS)

# The workloads run, exit 0, and have their hot functions in .symtab.
TESTS += tests/progs/progs.test
EXTRA_DIST += tests/progs/progs.test tests/progs/lib-progs.sh
