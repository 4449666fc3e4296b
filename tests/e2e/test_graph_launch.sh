#!/usr/bin/env bash
# End-to-end: CUDA graph launches (tests/workloads/graph_steps.c: a graph
# built node by node, A -> {B, C}, and one captured from a stream, each
# launched with cudaGraphLaunch and with cuGraphLaunch reached through
# cudaGetDriverEntryPointByVersion, between ordinary launches) on the
# simulated GPU and driver. The trace holds one dnntrace_api:graph_launch per
# graph launch with its api and result, every GPU kernel of a graph launch
# linked to that launch's call_id and no launch event for a graph's kernels;
# the reports equal the ground truth (graph kernels: that api, no tensors) at
# kernel granularity and at op granularity (one op per graph launch); tracing
# changes neither output nor status; timeline.json draws an arrow from
# each graph launch to each of its kernels.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/graph_steps"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13" "$SIMGPU_LIB/libcuda.so.1"
check() { python3 "$E2E_DIR/check_graph_launch.py" "$@"; }

record_like_untraced "$workload"

babeltrace2 "$e2e_tmp/trace" >"$e2e_tmp/trace.txt" 2>/dev/null || fail "babeltrace2 cannot read the trace"
check trace "$e2e_tmp/trace.txt" "$e2e_tmp/truth" >"$e2e_tmp/trace-check.out"
trace_status=$?
[ "$trace_status" = 0 ] || fail "graph launches in the trace: $(head -n 3 "$e2e_tmp/trace-check.out")"

analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >"$e2e_tmp/summary.out" 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
cmp -s "$e2e_tmp/summary.out" "$e2e_tmp/report/summary.txt" || fail "stdout is not summary.txt"
# the two launches captured into the stream's graph (captured_d, captured_e)
# ran no kernel of their own: counted, not hidden
grep -q '^launches without a kernel record: 2 ' "$e2e_tmp/summary.out" ||
	fail "captured launches not counted: $(grep '^launches without' "$e2e_tmp/summary.out")"
check report "$e2e_tmp/truth" "$e2e_tmp/report" ||
	fail "analyzer reports (kernel granularity) differ from ground truth"
# timeline.json: the trace-event rules hold, and every kernel, a graph's
# included (several kernels for one call), has its arrow from its call
python3 "$DNNTRACE_ROOT/tests/analysis/check_timeline.py" "$e2e_tmp/report/timeline.json" \
	>"$e2e_tmp/timeline.out" || fail "timeline.json: $(head -n 3 "$e2e_tmp/timeline.out")"
python3 - "$e2e_tmp/report/timeline.json" "$e2e_tmp/truth/kernels.csv" <<'PY' ||
import csv, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
kernels = [e for e in ev if e["ph"] == "X" and e.get("cat") == "kernel"]
arrows = {(e["pid"], e["tid"], e["ts"]) for e in ev if e["ph"] == "f"}
truth = list(csv.DictReader(open(sys.argv[2])))
linked = sum((k["pid"], k["tid"], k["ts"]) in arrows for k in kernels)
sys.exit(0 if len(kernels) == len(truth) == linked else 1)
PY
	fail "timeline.json: not every graph kernel has its launch arrow"

# One op per graph launch; the launches made during stream capture ran no
# kernel and are no op of their own (analysis/DECISIONS.md).
analyze "$e2e_tmp/trace" -o "$e2e_tmp/report-op" --granularity op >/dev/null 2>"$e2e_tmp/analyze-op.err" ||
	fail "analyze --granularity op exited $?: $(tail -n 1 "$e2e_tmp/analyze-op.err")"
check report "$e2e_tmp/truth/op" "$e2e_tmp/report-op" >"$e2e_tmp/op-check.out" ||
	fail "analyzer reports (op granularity) differ from ground truth: $(head -n 3 "$e2e_tmp/op-check.out")"
exit 0
