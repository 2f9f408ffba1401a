# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# PR_SONAME(DEFINE, LIBS, FUNCTION, PREFIX)
# The soname of the library named PREFIX... that a program calling
# FUNCTION and linked with LIBS needs, defined as the string DEFINE: for
# libraries pdata loads at their first use (lib/dynlib.h).
AC_DEFUN([PR_SONAME], [
  AC_REQUIRE([PR_DLOPEN])
  AC_CHECK_TOOL([OBJDUMP], [objdump], [])
  AC_MSG_CHECKING([the soname of $4])
  pr_soname_libs=$LIBS
  LIBS="$2 $LIBS"
  pr_soname=
  AC_LINK_IFELSE([AC_LANG_CALL([], [$3])],
    [pr_soname=`$OBJDUMP -p conftest$ac_exeext 2>/dev/null |
      awk '$[]1 == "NEEDED" && $[]2 ~ /^$4/ { print $[]2; exit }'`])
  LIBS=$pr_soname_libs
  AC_MSG_RESULT([${pr_soname:-not found}])
  AS_IF([test -z "$pr_soname"],
    [AC_MSG_ERROR([cannot tell which $4 file a program linked with $2 loads (objdump: ${OBJDUMP:-none})])])
  AC_DEFINE_UNQUOTED([$1], ["$pr_soname"], [The soname of $4, loaded at its first use.])
])

# PR_DLOPEN: the library with dlopen(3), in DL_LIBS.
AC_DEFUN([PR_DLOPEN], [
  pr_dl_libs=$LIBS
  AC_SEARCH_LIBS([dlopen], [dl], [],
    [AC_MSG_ERROR([dlopen(3) not found])])
  DL_LIBS=${LIBS%"$pr_dl_libs"}
  LIBS=$pr_dl_libs
  AC_SUBST([DL_LIBS])
])
