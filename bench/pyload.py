# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# bench/pyload.py - the DWARF benchmark's workload: CPython (no frame
# pointers, thousands of functions, stacks 15 to 40 frames deep) doing
# JSON, regular expressions and sorting until perf stops it.
import json
import random
import re


def work(n):
    total = 0
    for i in range(n):
        d = {"a": i, "b": [random.random() for _ in range(5)], "c": str(i) * 3}
        text = json.dumps(d)
        total += len(text) + len(re.findall(r"\d+", text))
        total += int(sum(sorted(d["b"])))
    return total


while True:
    work(10000)
