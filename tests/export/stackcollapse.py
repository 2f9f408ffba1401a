#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
"""Collapse `perf script` text into FlameGraph's folded stacks.

Our own implementation of the rules FlameGraph's stackcollapse-perf.pl
documents and applies (it is not shipped by Debian, so the tests cannot
run it): written from those rules for tests/export-collapsed.test, which
compares pexport --to collapsed with this applied to perf's own text.

Options as the script's: --pid, --tid, --all (kernel and JIT
annotations), --addrs.  Input on stdin, output on stdout.
"""
import re
import sys

HEADER = re.compile(r'^(\S.+?)\s+(\d+)/*(\d+)*\s+')
EVENT = re.compile(r':\s*(\d+)*\s+(\S+):\s*$')
FRAME = re.compile(r'^\s*(\w+)\s*(.+) \((.*)\)')


def tidy(func, pname):
    func = func.replace(';', ':')
    if not re.search(r'\.\(.*\)\.', func):
        func = re.sub(r'\((?!anonymous namespace\)).*', '', func)
    func = func.replace('"', '').replace("'", '')
    if pname.startswith('java') and '/' in func:
        func = re.sub(r'^L', '', func)
    return func


def frame_name(pc, rawfunc, mod, pname, opts):
    rawfunc = re.sub(r'\+0x[\da-f]+$', '', rawfunc)
    if rawfunc.startswith('('):
        return None
    func = rawfunc
    if func == '[unknown]':
        if mod != '[unknown]':
            func = re.sub(r'.*/', '', mod)
        else:
            func = 'unknown'
        func = '[%s <%s>]' % (func, pc) if '--addrs' in opts else \
            '[%s]' % func
    func = tidy(func, pname)
    if '--all' in opts:
        if re.search(r'(^\[|vmlinux$)', mod) and 'unknown' not in mod:
            func += '_[k]'
        elif re.search(r'/tmp/perf-\d+\.map', mod) and '_[j]' not in func:
            func += '_[j]'
    return func


def main(opts):
    stacks = {}
    stack, pname, period = [], None, 1
    event_filter = None
    for line in sys.stdin:
        line = line.rstrip('\n')
        if line.startswith('#'):
            continue
        if line == '':
            if pname is not None:
                key = ';'.join([pname] + stack)
                stacks[key] = stacks.get(key, 0) + period
            stack, pname = [], None
            continue
        m = HEADER.match(line)
        if m:
            comm, pid, tid = m.group(1), m.group(2), m.group(3)
            if not tid or tid == '0':
                tid, pid = pid, '?'
            period = 1
            e = EVENT.search(line)
            if e:
                if event_filter is None:
                    event_filter = e.group(2)
                elif e.group(2) != event_filter:
                    continue
                if e.group(1):
                    period = int(e.group(1))
            if '--tid' in opts:
                pname = '%s-%s/%s' % (comm, pid, tid)
            elif '--pid' in opts:
                pname = '%s-%s' % (comm, pid)
            else:
                pname = comm
            pname = pname.replace(' ', '_')
            continue
        m = FRAME.match(line)
        if m and pname is not None:
            name = frame_name(m.group(1), m.group(2), m.group(3), pname,
                              opts)
            if name is not None:
                stack.insert(0, name)
    for key in sorted(stacks, key=lambda k: k.encode()):
        print('%s %d' % (key, stacks[key]))


if __name__ == '__main__':
    main(sys.argv[1:])
