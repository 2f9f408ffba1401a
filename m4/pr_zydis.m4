# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# PR_ZYDIS: the Zydis 4 x86 decoder, required (pscript's -F insn,insnlen).
# Through pkg-config where zydis.pc exists (upstream installs); Debian's
# libzydis-dev ships none, only CMake files, so the header and library
# are then probed directly (ZydisDecoderDecodeInstruction() is Zydis 4's).
# Sets ZYDIS_CFLAGS, ZYDIS_LIBS and pr_v_zydis.
AC_DEFUN([PR_ZYDIS], [
  PKG_CHECK_MODULES([ZYDIS], [zydis >= 4.0],
    [pr_v_zydis=$($PKG_CONFIG --modversion zydis)],
    [ZYDIS_CFLAGS= ZYDIS_LIBS=-lZydis pr_v_zydis=])
  pr_save_CFLAGS=$CFLAGS
  pr_save_LIBS=$LIBS
  CFLAGS="$CFLAGS $ZYDIS_CFLAGS"
  LIBS="$ZYDIS_LIBS $LIBS"
  AC_MSG_CHECKING([for the Zydis 4 decoder])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <Zydis/Decoder.h>
]], [[ZydisDecoder d;
ZydisDecodedInstruction in;
ZydisDecoderInit(&d, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
return ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&d, ZYAN_NULL, "", 1,
						     &in));]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([Zydis >= 4.0 not found (Debian: libzydis-dev)])])
  AS_IF([test -z "$pr_v_zydis"], [
    AC_COMPUTE_INT([pr_zy_major], [ZYDIS_VERSION_MAJOR(ZYDIS_VERSION)],
      [[#include <Zydis/Zydis.h>]], [pr_zy_major=?])
    AC_COMPUTE_INT([pr_zy_minor], [ZYDIS_VERSION_MINOR(ZYDIS_VERSION)],
      [[#include <Zydis/Zydis.h>]], [pr_zy_minor=?])
    AC_COMPUTE_INT([pr_zy_patch], [ZYDIS_VERSION_PATCH(ZYDIS_VERSION)],
      [[#include <Zydis/Zydis.h>]], [pr_zy_patch=?])
    pr_v_zydis=$pr_zy_major.$pr_zy_minor.$pr_zy_patch
  ])
  CFLAGS=$pr_save_CFLAGS
  LIBS=$pr_save_LIBS
  AC_SUBST([ZYDIS_CFLAGS])
  AC_SUBST([ZYDIS_LIBS])
])
