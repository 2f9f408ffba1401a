# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# PR_WITH_LIB(name, VAR, pkg-spec, what-for, debian-package)
# An optional library: --with-name=yes|no|check (default check).  Defines
# HAVE_VAR and the automake conditional HAVE_VAR; sets have_name.
AC_DEFUN([PR_WITH_LIB], [
  AC_ARG_WITH([$1],
    [AS_HELP_STRING([--with-$1=yes|no|check], [$4 (default: check)])],
    [], [with_$1=check])
  have_$1=no
  AS_IF([test "x$with_$1" != xno],
    [PKG_CHECK_MODULES([$2], [$3], [have_$1=yes],
       [AS_IF([test "x$with_$1" = xyes],
              [AC_MSG_ERROR([--with-$1=yes but $3 not found (Debian: $5)])])])])
  AS_IF([test "x$have_$1" = xyes],
    [AC_DEFINE([HAVE_$2], [1], [Define if $1 is usable.])])
  AM_CONDITIONAL([HAVE_$2], [test "x$have_$1" = xyes])
])
