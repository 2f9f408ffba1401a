#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
#
# tests/branch/make-typed.py IN OUT [SEED] - the recipe of typed.data (not
# run by make): a copy of tests/fixtures/simpleperf/perf_b.data whose
# branch entries get pseudo-random flags (type, new_type, cycles,
# mispred/predicted, in_tx, abort), so that branch mode's keys and its
# "Branch Statistics" block see every kind of value.  typed.data was made
# with SEED 5:
#
#   xz -dc tests/fixtures/simpleperf/perf_b.data.xz > perf_b.data
#   python3 tests/branch/make-typed.py perf_b.data typed.data 5
#   xz -9 -c typed.data > tests/branch/typed.data.xz
#
# The input must have one attr with sample_type IP|TID|TIME|CPU|PERIOD|
# BRANCH_STACK (0x987), as perf_b.data has.
import random
import struct
import sys

SAMPLE = 9
SAMPLE_TYPE = 0x987


def main():
    src, dst = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    f = bytearray(open(src, 'rb').read())
    attrs_off = struct.unpack_from('<Q', f, 24)[0]
    data_off, data_size = struct.unpack_from('<QQ', f, 40)
    sample_type = struct.unpack_from('<Q', f, attrs_off + 24)[0]
    if sample_type != SAMPLE_TYPE:
        sys.exit('unexpected sample_type %#x' % sample_type)
    rnd = random.Random(seed)
    off, n = data_off, 0
    while off < data_off + data_size:
        rtype, _misc, size = struct.unpack_from('<IHH', f, off)
        if size == 0:
            break
        if rtype == SAMPLE:
            p = off + 8 + 5 * 8          # header, ip, tid, time, cpu, period
            nr = struct.unpack_from('<Q', f, p)[0]
            p += 8
            for i in range(nr):
                at = p + 24 * i + 16     # from, to, then the flags word
                fl = struct.unpack_from('<Q', f, at)[0]
                btype = rnd.choice([0, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 12, 15])
                new_type = rnd.randrange(8)
                cycles = rnd.choice([0, 0, 1, 2, 3, 40000, 7])
                pred = rnd.randrange(4)
                fl &= ~((0xf << 20) | (0xf << 26) | (0xffff << 4) | 0xf)
                fl |= (btype << 20) | (new_type << 26) | (cycles << 4) | pred
                fl |= (rnd.randrange(2) << 2) | (rnd.randrange(2) << 3)
                struct.pack_into('<Q', f, at, fl)
                n += 1
        off += size
    open(dst, 'wb').write(f)
    print('%d branch entries' % n)


main()
