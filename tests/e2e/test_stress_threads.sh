#!/usr/bin/env bash
# End-to-end: 8 threads allocate, launch and free concurrently; every traced
# allocation, launch and free must be attributed to the right thread, with
# the right size and tensors, and the analyzer must see the same tensors.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/stress_threads"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"

record_like_untraced --stdout-only "$workload"
babeltrace2 "$e2e_tmp/trace" >"$e2e_tmp/trace.txt" 2>"$e2e_tmp/babeltrace.err" ||
	fail "babeltrace2 could not read the trace: $(tail -n 1 "$e2e_tmp/babeltrace.err")"
analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >/dev/null 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
compare stress "$e2e_tmp/truth" "$e2e_tmp/trace.txt" "$e2e_tmp/report" ||
	fail "trace or reports differ from what the threads did"
