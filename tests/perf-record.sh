#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/perf-record.sh - the tests' $PERF: perf itself, with
# --no-bpf-event added to `perf record`.  perf 6.1 otherwise runs a BPF
# side-band thread that keeps every recording about 0.7 s longer after
# the workload has ended (measured: `perf record -e cpu-clock -- true`,
# 1.15 s against 0.45 s); the tests never read BPF program events.
if [ "${1:-}" = record ]; then
	shift
	exec "$PERF_REAL" record --no-bpf-event "$@"
fi
exec "$PERF_REAL" "$@"
