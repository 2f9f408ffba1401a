# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# PR_SANITIZERS: --enable-sanitizers builds everything with ASan and UBSan.
AC_DEFUN([PR_SANITIZERS], [
  AC_ARG_ENABLE([sanitizers],
    [AS_HELP_STRING([--enable-sanitizers], [build with AddressSanitizer and UndefinedBehaviorSanitizer])],
    [], [enable_sanitizers=no])
  SANITIZER_CFLAGS=
  pr_sanitizers=
  AS_IF([test "x$enable_sanitizers" = xyes], [
    SANITIZER_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    pr_sanitizers="address,undefined"
    pr_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS $SANITIZER_CFLAGS"
    pr_save_LDFLAGS=$LDFLAGS
    LDFLAGS="$LDFLAGS $SANITIZER_CFLAGS"
    AC_MSG_CHECKING([whether $CC accepts $SANITIZER_CFLAGS])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no]); AC_MSG_ERROR([--enable-sanitizers: the compiler cannot build with ASan/UBSan])])
    CFLAGS=$pr_save_CFLAGS
    LDFLAGS=$pr_save_LDFLAGS
  ])
  AC_SUBST([SANITIZER_CFLAGS])
])
