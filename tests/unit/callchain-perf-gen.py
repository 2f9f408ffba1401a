#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
"""Regenerate tests/unit/callchain-perf.h (not run by make).

  cc -O0 -g -fno-omit-frame-pointer -o work work.c   # work.c below
  perf record -e cpu-clock -c 100000 -g -o cg.data ./work 30000
  python3 tests/unit/callchain-perf-gen.py cg.data tests/unit/callchain-perf.h

work.c:

#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf_a(int n) { for (int i = 0; i < n * 30; i++) sink += i; }
__attribute__((noinline)) void leaf_b(int n) { for (int i = 0; i < n * 10; i++) sink ^= i; }
__attribute__((noinline)) void leaf_c(int n) { for (int i = 0; i < n * 2; i++) sink -= i; }
__attribute__((noinline)) void mid(int n) { leaf_a(n); leaf_b(n); }
__attribute__((noinline)) void mid2(int n) { leaf_b(n); leaf_c(n); }
__attribute__((noinline)) void rec(int d, int n) { if (d == 0) { leaf_a(n); leaf_c(n); return; } leaf_c(n/4); rec(d - 1, n); }
__attribute__((noinline)) void deep(int d, int n) { if (d == 0) { leaf_b(n); return; } deep(d - 1, n); sink++; }
__attribute__((noinline)) void side(int n) { for (int i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void fan(int d) { side(60); if (d) fan(d - 1); else side(2000); }
int main(int argc, char **argv)
{
	int loops = argc > 1 ? atoi(argv[1]) : 2000;
	for (int i = 0; i < loops; i++) {
		mid(1000);
		mid2(1000);
		rec(3, 300);
		deep(40, 150);
		fan(40);
		if (i % 7 == 0) leaf_c(1000);
	}
	return 0;
}
"""
import re, subprocess, sys

data = sys.argv[1]
out = sys.argv[2]
PERF = 'perf'

script = subprocess.run([PERF, 'script', '-i', data, '-F', 'period,ip,sym,symoff,dso'],
                        capture_output=True, text=True).stdout
# dso creation order in perf: kernel first, then MMAP order
mm = subprocess.run([PERF, 'script', '-i', data, '--show-mmap-events'],
                    capture_output=True, text=True).stdout
dsos = []
for line in mm.splitlines():
    m = re.search(r'PERF_RECORD_MMAP2? .*\]: \S+ (\S+)$', line)
    if m:
        name = m.group(1)
        if name.startswith('[kernel.kallsyms]'):
            name = '[kernel.kallsyms]'
        if name not in dsos:
            dsos.append(name)

samples = []
cur = None
for line in script.splitlines():
    if not line.strip():
        if cur:
            samples.append(cur)
        cur = None
        continue
    if not line.startswith('\t'):
        cur = [int(line.split()[0]), []]
        continue
    m = re.match(r'^\s*([0-9a-f]+) (.*) \((.*)\)$', line)
    ip = int(m.group(1), 16)
    sym = m.group(2)
    dso = m.group(3)
    if sym == '[unknown]':
        name, start = None, None
    else:
        k = sym.rindex('+0x')
        name, start = sym[:k], ip - int(sym[k + 3:], 16)
    cur[1].append((ip, name, start, dso))
if cur:
    samples.append(cur)

syms = {}
symlist = []
frames = {}
framelist = []
chains = {}
for period, fr in samples:
    assert period == 100000
    idx = []
    for ip, name, start, dso in fr:
        d = dsos.index(dso) if dso != '[unknown]' else -1
        if dso != '[unknown]' and dso.startswith('/'):
            pass
        s = -1
        if name is not None:
            key = (name, start, d)
            if key not in syms:
                syms[key] = len(symlist)
                symlist.append(key)
            s = syms[key]
        # the ip perf report prints for a frame without a map is the raw ip
        fkey = (s, d, ip if s < 0 else 0)
        if fkey not in frames:
            frames[fkey] = len(framelist)
            framelist.append(fkey)
        idx.append(frames[fkey])
    chains[tuple(idx)] = chains.get(tuple(idx), 0) + 1

cases = [
    # entry, children, -g string or None, name
    ('leaf_a', False, None),
    ('leaf_b', False, None),
    ('leaf_c', False, None),
    ('leaf_c', False, 'fractal'),
    ('leaf_b', False, 'flat'),
    ('leaf_a', False, 'folded'),
    ('leaf_c', False, 'caller'),
    ('leaf_a', False, 'graph,0,callee'),
    ('irqentry_exit_to_user_mode', False, 'graph,0'),
    ('handle_softirqs', False, 'graph,0'),
    ('leaf_c', False, 'fractal,5'),
    ('leaf_c', False, 'graph,0,callee,period'),
    ('leaf_c', False, 'fractal,0,count'),
    ('leaf_b', False, 'graph,0.5,callee,function,percent,2'),
    ('leaf_c', False, 'flat,0'),
    ('leaf_c', False, 'folded,0,caller'),
    ('leaf_c', False, 'fr,0,ca,pe'),
    ('main', True, None),
    ('rec', True, None),
    ('deep', True, 'graph,0'),
    ('leaf_b', True, None),
    ('main', True, 'callee'),
    ('rec', True, 'fractal'),
    ('leaf_c', True, 'flat'),
    ('leaf_c', True, 'folded'),
    ('deep', True, 'fractal,0,caller'),
    ('rec', True, 'fractal,0.8,caller,count'),
    ('mid', True, 'graph,0,caller,function,period'),
    ('side', False, 'graph,0,caller'),
    ('side', True, 'graph,0.2,callee'),
    ('leaf_c', False, 'flat,0,callee,percent,2'),
    ('leaf_c', False, 'folded,0,count,1'),
    ('deep', True, 'graph,0.5,caller,3'),
    ('rec', True, 'fractal,0.5,callee,1'),
]

entry_re = re.compile(r'^\s+\d+\.\d+%.*\[[.kguH]\] (\S.*)$')

def block(entry, children, g):
    cmd = [PERF, 'report', '-i', data, '--stdio', '--sort', 'sym']
    cmd.append('--children' if children else '--no-children')
    if g is not None:
        cmd += ['-g', g]
    while True:
        txt = subprocess.run(cmd, capture_output=True, text=True).stdout
        if not [l for l in txt.split('\n') if '[...]' in l and '(inlined)' not in l]:
            break
    lines = txt.split('\n')
    for i, l in enumerate(lines):
        m = entry_re.match(l)
        if m and m.group(1) == entry:
            j = i + 1
            while j < len(lines) and not entry_re.match(lines[j]):
                j += 1
            assert j < len(lines), 'last entry'
            return '\n'.join(lines[i + 1:j]) + ('\n' if j > i + 1 else ''), l
    raise SystemExit('no entry %s' % entry)

def cstr(s):
    o = []
    for line in s.split('\n')[:-1] if s.endswith('\n') else s.split('\n'):
        o.append('\t"' + line.replace('\\', '\\\\').replace('"', '\\"') + '\\n"')
    return '\n'.join(o) if o else '\t""'

with open(out, 'w') as f:
    f.write('''/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/callchain-perf.h - chains and perf 6.1 outputs for
 * test-callchain.c, written by callchain-perf-gen.py (which holds the
 * workload and the commands) from one recording, through
 *   perf script -i cg.data -F period,ip,sym,symoff,dso
 *   perf report -i cg.data --stdio --sort sym [--no-children] [-g ARG]
 * Each chain is listed once with the number of samples that had it (all
 * of period 100000); symbol starts are ip - offset as perf script shows
 * them; DSOs in the order perf creates them (kernel, then MMAP order).
 * perf prints fractal mode's "[...]" line with an uninitialised inlined
 * flag, almost always set: a rare run without " (inlined)" is retried.
 */

''')
    f.write('static const char *const cc_dso_names[] = {\n')
    for d in dsos:
        f.write('\t"%s",\n' % d)
    f.write('};\n\n')
    f.write('static const struct cc_tsym {\n\tconst char *name;\n\tuint64_t start;\n\tint dso;\n} cc_syms[] = {\n')
    for name, start, d in symlist:
        f.write('\t{ "%s", %#x, %d },\n' % (name, start, d))
    f.write('};\n\n')
    f.write('/* symbol index (-1: none), DSO index (-1: no map), ip when no symbol */\n')
    f.write('static const struct cc_tframe {\n\tint sym;\n\tint dso;\n\tuint64_t ip;\n} cc_frames[] = {\n')
    for s, d, ip in framelist:
        f.write('\t{ %d, %d, %#x },\n' % (s, d, ip))
    f.write('};\n\n')
    f.write('/* samples, frames, then the frames leaf first */\n')
    f.write('static const uint32_t cc_chains[] = {\n')
    for k, n in chains.items():
        f.write('\t%d, %d, %s,\n' % (n, len(k), ', '.join(str(x) for x in k)))
    f.write('};\n\n')
    f.write('static const struct cc_case {\n\tconst char *entry;\n\tbool children;\n\tconst char *g;\n\tconst char *expect;\n} cc_cases[] = {\n')
    for entry, children, g in cases:
        exp, l = block(entry, children, g)
        f.write('\t/* perf report --sort sym %s%s; entry:\n\t * %s */\n' % (
            '--children' if children else '--no-children',
            (' -g ' + g) if g else '', l.strip()))
        f.write('\t{ "%s", %s, %s,\n%s },\n' % (entry, 'true' if children else 'false',
                                               ('"%s"' % g) if g else 'NULL', cstr(exp)))
    f.write('};\n')
print(len(samples), 'samples', len(chains), 'chains', len(framelist), 'frames')
