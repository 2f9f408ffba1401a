# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# PR_WARN_CFLAGS: the warnings we build with; --enable-werror makes them errors.
AC_DEFUN([PR_WARN_CFLAGS], [
  AC_ARG_ENABLE([werror],
    [AS_HELP_STRING([--enable-werror], [treat compiler warnings as errors (CI)])],
    [], [enable_werror=no])
  WARN_CFLAGS="-Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith -Wvla -Wno-unused-parameter"
  AS_IF([test "x$enable_werror" = xyes], [WARN_CFLAGS="$WARN_CFLAGS -Werror"])
  AC_SUBST([WARN_CFLAGS])
])
