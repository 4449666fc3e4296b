#!/usr/bin/env bash
# End-to-end: an allocation the GPU refuses is traced as failed (tensor -1),
# creates no tensor and shifts no id; the program goes on and the reports
# match its ground truth.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/failed_alloc"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"
export SIMGPU_MEM_BYTES=$((64 << 20))

record_like_untraced --stdout-only "$workload"
babeltrace2 "$e2e_tmp/trace" >"$e2e_tmp/trace.txt" 2>/dev/null || fail "babeltrace2 could not read the trace"
analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >/dev/null 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
compare failed "$e2e_tmp/truth" "$e2e_tmp/trace.txt" "$e2e_tmp/report" ||
	fail "failed allocation or reports differ from ground truth"
