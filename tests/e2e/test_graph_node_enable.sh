#!/usr/bin/env bash
# End-to-end: a node disabled with cudaGraphNodeSetEnabled is never taken
# for a child graph's kernel (analysis/model/graph_nodes.c, trace format 8).
# child_graphs TRUTH disabled (tests/workloads/child_graphs.c): parent
# {child {step(a)} -> step(b)} instantiated twice; in one exec step(b) is
# disabled for a launch and enabled for the next, in the other disabled for
# its one launch. Traced and untraced the same; the trace has the three
# graph_node_enable events (enabled 0, 1, 0, result 0) and simgpu ran no
# record of a disabled node; at kernel and op granularity the reports equal
# the ground truth (the child's step has a at every launch, b is touched
# only at the launch where step(b) ran) and no graph kernel is unknown.
# Fails without the disabled check: the launch of the second exec is
# unknown (its disabled step(b) is a second candidate for the child's step).
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/child_graphs"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13" "$SIMGPU_LIB/libcuda.so.1"

dir="$e2e_tmp/disabled"
mkdir -p "$dir"
untraced "$workload" "$dir/truth-untraced" disabled >"$dir/untraced.out" 2>"$dir/untraced.err" ||
	fail "untraced exited $?: $(tail -n 2 "$dir/untraced.err")"
record "$dir/trace" "$workload" "$dir/truth" disabled >"$dir/traced.out" 2>"$dir/record.err" ||
	fail "traced exited $?: $(tail -n 2 "$dir/record.err")"
cmp -s "$dir/untraced.out" "$dir/traced.out" || fail "stdout differs when traced"
check_no_discarded "$dir/trace"
babeltrace2 "$dir/trace" >"$dir/trace.txt" 2>/dev/null || fail "babeltrace2 cannot read the trace"
python3 - "$dir/trace.txt" >"$dir/events.out" <<'PY' || fail "graph_node_enable events: $(cat "$dir/events.out")"
import re, sys
states = []
for line in open(sys.argv[1]):
    if "dnntrace_api:graph_node_enable:" in line:
        node = int(re.search(r"\bnode_id = (\d+)", line)[1])
        states.append((int(re.search(r"\benabled = (-?\d+)", line)[1]),
                       int(re.search(r"\bresult = (-?\d+)", line)[1]), node != 0))
if states != [(0, 0, True), (1, 0, True), (0, 0, True)]:
    print(f"(enabled, result, node known) = {states}; expected 0, 1, 0, all succeeded, nodes known")
    sys.exit(1)
PY
for granularity in kernel op; do
	report="$dir/report-$granularity" truth="$dir/truth"
	[ "$granularity" = op ] && truth="$dir/truth/op"
	analyze "$dir/trace" -o "$report" --granularity "$granularity" >"$dir/summary.out" \
		2>"$dir/analyze.err" || fail "analyze ($granularity) exited $?: $(tail -n 1 "$dir/analyze.err")"
	python3 "$E2E_DIR/check_graph_launch.py" report "$truth" "$report" >"$dir/check.out" ||
		fail "$granularity granularity differs from ground truth: $(head -n 3 "$dir/check.out")"
	grep -q '^graph kernels with unknown tensors' "$dir/summary.out" &&
		fail "$granularity: $(grep '^graph kernels' "$dir/summary.out")"
done
exit 0
