#!/usr/bin/env bash
# End-to-end: trace the PyTorch-style MLP training workload on the simulated
# GPU and check every report of the analyzer against the workload's ground
# truth exactly; tracing must not change the program's output or status.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/mlp_train"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"

record_like_untraced "$workload"

analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >"$e2e_tmp/summary.out" 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
cmp -s "$e2e_tmp/summary.out" "$e2e_tmp/report/summary.txt" || fail "stdout is not summary.txt"
compare truth "$e2e_tmp/truth" "$e2e_tmp/report" || fail "analyzer reports differ from ground truth"
