#!/usr/bin/env bash
# End-to-end: host memory a program pins itself is pinned host memory in the
# reports. tests/workloads/host_register.c registers two buffers of known
# sizes (cudaHostRegister, and the driver's cuMemHostRegister reached through
# cudaGetDriverEntryPointByVersion), copies from and into them, unregisters
# one, and makes four refused calls (an undefined flag, memory registered
# twice, two unregistrations of unregistered memory) beside a cudaMallocHost.
# Checked against what it wrote by construction (compare.py host): one event
# per call with its api, result and bytes (and one timeline.json slice with
# its result), the pinned address the copies use, the summary's failed,
# pinned and registered lines, and tensors, kernels and memory exactly the
# device's (registered memory is no tensor). Tracing changes neither output
# nor status.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/host_register"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"

record_like_untraced "$workload"
babeltrace2 "$e2e_tmp/trace" >"$e2e_tmp/trace.txt" 2>/dev/null || fail "babeltrace2 could not read the trace"
analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >/dev/null 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
compare host "$e2e_tmp/truth" "$e2e_tmp/trace.txt" "$e2e_tmp/report" >"$e2e_tmp/compare.out" ||
	fail "pinned host memory differs from ground truth: $(head -n 3 "$e2e_tmp/compare.out")"
exit 0
