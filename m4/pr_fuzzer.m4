# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# PR_FUZZER: find a clang that links libFuzzer targets (-fsanitize=fuzzer).
AC_DEFUN([PR_FUZZER], [
  AC_ARG_WITH([fuzzer],
    [AS_HELP_STRING([--with-fuzzer=yes|no|check], [build and run the libFuzzer target of the reader (default: check)])],
    [], [with_fuzzer=check])
  pr_have_fuzzer=no
  FUZZ_CC=
  AS_IF([test "x$with_fuzzer" != xno], [
    AC_CHECK_PROGS([FUZZ_CC], [clang clang-16 clang-15 clang-14], [])
    AS_IF([test -n "$FUZZ_CC"], [
      AC_MSG_CHECKING([whether $FUZZ_CC links libFuzzer targets])
      cat > conftest-fuzz.c <<'PR_EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
PR_EOF
      AS_IF([$FUZZ_CC -fsanitize=fuzzer,address,undefined conftest-fuzz.c -o conftest-fuzz >&AS_MESSAGE_LOG_FD 2>&1],
        [pr_have_fuzzer=yes; AC_MSG_RESULT([yes])], [AC_MSG_RESULT([no])])
      rm -f conftest-fuzz.c conftest-fuzz
    ])
    AS_IF([test "x$with_fuzzer" = xyes && test "x$pr_have_fuzzer" != xyes],
      [AC_MSG_ERROR([--with-fuzzer=yes but no clang with libFuzzer was found (Debian: clang, libclang-rt-14-dev)])])
  ])
  dnl llvm-cov and llvm-profdata: make fuzz reports source-based coverage
  LLVM_COV=
  LLVM_PROFDATA=
  AS_IF([test "x$pr_have_fuzzer" = xyes], [
    pr_llvm_ver=`$FUZZ_CC --version | sed -n 's/.*clang version \([[0-9]]*\).*/\1/p'`
    AC_PATH_PROGS([LLVM_COV], [llvm-cov-$pr_llvm_ver llvm-cov], [])
    AC_PATH_PROGS([LLVM_PROFDATA], [llvm-profdata-$pr_llvm_ver llvm-profdata], [])
  ])
  AC_SUBST([FUZZ_CC])
  AM_CONDITIONAL([HAVE_LLVM_COV], [test -n "$LLVM_COV" && test -n "$LLVM_PROFDATA"])
  AM_CONDITIONAL([HAVE_FUZZER], [test "x$pr_have_fuzzer" = xyes])
])
