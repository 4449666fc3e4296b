#!/usr/bin/env bash
# End-to-end: an allocation the GPU refuses is traced as failed (tensor -1),
# creates no tensor and shifts no id; the program goes on and the reports
# match its ground truth.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/failed_alloc"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"
export SIMGPU_MEM_BYTES=$((64 << 20))

untraced "$workload" "$e2e_tmp/truth-untraced" >"$e2e_tmp/untraced.out" ||
	fail "untraced failed_alloc failed"
record "$e2e_tmp/trace" "$workload" "$e2e_tmp/truth" >"$e2e_tmp/traced.out" 2>"$e2e_tmp/record.err"
status=$?
[ "$status" = 0 ] || fail "record exited $status: $(tail -n 2 "$e2e_tmp/record.err")"
cmp -s "$e2e_tmp/untraced.out" "$e2e_tmp/traced.out" || fail "stdout differs when traced"
check_no_discarded "$e2e_tmp/trace"
babeltrace2 "$e2e_tmp/trace" >"$e2e_tmp/trace.txt" 2>/dev/null || fail "babeltrace2 could not read the trace"
analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >/dev/null 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
compare failed "$e2e_tmp/truth" "$e2e_tmp/trace.txt" "$e2e_tmp/report" ||
	fail "failed allocation or reports differ from ground truth"
