# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/cache-lib.sh - sourced after init.sh by the cache-*.test scripts.
#
# Builds app (its time in libcachelib.so, found through $ORIGIN, and in
# libc's strlen; the library has SystemTap SDT notes) in
# the test directory and records it with perf 6.1, whose build-id cache
# goes to $PWD/T1 (perf 6.1 takes --buildid-dir, not PERF_BUILDID_DIR;
# it passes the directory on to perf-archive.sh as PERF_BUILDID_DIR).

PDC=$top_builddir/tests/tools/pd-cache
test -x "$PDC" || framework_failure_ "pd-cache is not built"
require_perf_
require_prog_ gcc

# perf must not touch the real ~/.debug or read a user's config
HOME=$PWD; export HOME
unset PERF_BUILDID_DIR

# build_app_: app and libcachelib.so in the current directory
build_app_() {
	cat >lib.c <<'E'
volatile unsigned long cache_sink;
__attribute__((section(".probes"))) volatile unsigned short cache_sema;

/* SystemTap SDT notes as sys/sdt.h lays them out (no sys/sdt.h needed) */
#ifdef __x86_64__
#define CACHE_SDT(prov, name, args, sema)				\
	__asm__ __volatile__(						\
		"990: nop\n"						\
		".pushsection .note.stapsdt,\"\",\"note\"\n"		\
		".balign 4\n"						\
		".4byte 992f-991f, 994f-993f, 3\n"			\
		"991: .asciz \"stapsdt\"\n"				\
		"992: .balign 4\n"					\
		"993: .8byte 990b\n"					\
		".8byte _.stapsdt.base\n"				\
		".8byte " sema "\n"					\
		".asciz \"" prov "\"\n"					\
		".asciz \"" name "\"\n"					\
		".asciz \"" args "\"\n"					\
		"994: .balign 4\n"					\
		".popsection\n"						\
		".ifndef _.stapsdt.base\n"				\
		".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
		".weak _.stapsdt.base\n"				\
		".hidden _.stapsdt.base\n"				\
		"_.stapsdt.base: .space 1\n"				\
		".size _.stapsdt.base, 1\n"				\
		".popsection\n"						\
		".endif\n")
#else
#define CACHE_SDT(prov, name, args, sema)
#endif

unsigned long
cache_lib_burn(unsigned long n)
{
	unsigned long i, x = 1;

	CACHE_SDT("cachetest", "start", "8@%rdi -4@%esi 4@$5 8@-16(%rbp) "
		  "2@(%rax) %r9d 1@%r15b 8@16(%rsp,%rax,8)", "0");
	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	CACHE_SDT("cachetest", "done", "", "cache_sema");
	CACHE_SDT("cachetest", "start", "-8@%rax", "0");
	cache_sink = x;
	return x;
}
E
	cat >app.c <<'E'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
unsigned long cache_lib_burn(unsigned long n);
static __attribute__((noinline)) unsigned long
app_spin(unsigned long n)
{
	volatile unsigned long x = 0;

	while (n--)
		x += n;
	return x;
}
int
main(void)
{
	struct timespec a, b;
	unsigned long s = 0;
	char *buf = malloc(1 << 16);

	if (!buf)
		return 1;
	memset(buf, 'x', (1 << 16) - 1);
	buf[(1 << 16) - 1] = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		s += cache_lib_burn(200000) + app_spin(100000);
		for (int i = 0; i < 20; i++)
			s += strlen(buf + (s & 7));
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 +
		 (b.tv_nsec - a.tv_nsec) / 1000000 < 300);
	printf("%lu\n", s);
	free(buf);
	return 0;
}
E
	gcc -O1 -g -fPIC -shared -Wl,--build-id -o libcachelib.so lib.c ||
		framework_failure_ "gcc (shared library)"
	gcc -O1 -g -Wl,--build-id -o app app.c -L. -lcachelib \
		-Wl,-rpath,'$ORIGIN' || framework_failure_ "gcc (program)"
}

# record_app_ FILE: perf record of app, its build-id cache in $PWD/T1
record_app_() {
	"$PERF" --buildid-dir "$PWD/T1" record -q -e cpu-clock -F 1000 \
		-o "$1" ./app >/dev/null 2>rec.err ||
		skip_ "perf record failed here: $(head -n 2 rec.err)"
	test -d T1/.build-id || fail_ "perf record did not fill T1"
}

# tree_ DIR: type, mode, path and link target of everything under DIR
tree_() {
	(cd "$1" && find . -printf '%y %m %p %l\n' | LC_ALL=C sort -k3)
}

# same_files_ A B: the regular files under A that differ from their
# twins under B, one a line
same_files_() {
	(cd "$1" && find . -type f) | while IFS= read -r f_; do
		cmp -s "$1/$f_" "$2/$f_" || echo "$f_"
	done
}

# same_kallsyms_ A B: two kallsyms copies equal but for the BPF and
# module lines, which come and go between two reads of /proc/kallsyms
same_kallsyms_() {
	tab_=$(printf '\t')
	grep -v -e '\[bpf\]' -e "$tab_\\[" "$1" >k1_
	grep -v -e '\[bpf\]' -e "$tab_\\[" "$2" >k2_
	cmp -s k1_ k2_
}
