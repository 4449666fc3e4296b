#!/usr/bin/env bash
# End-to-end: kernels of child graph nodes (tests/workloads/child_graphs.c)
# take their nodes' tensors. simgpu runs a child graph's kernels under node
# ids no CUPTI callback names, as an H200 did (simgpu/README.md "CUDA
# graphs"); the analysis gives such a kernel the tensors of the one node of
# its exec that can be its own, or leaves it unknown
# (analysis/model/graph_nodes.c).
#  - child_graphs TRUTH: a child of one kernel (named like the parent's
#    own), a child of two different kernels, a child inside a child. Traced
#    and untraced the same; in the trace, the child kernels' records carry
#    node ids no event names (the case this is about, checked, not
#    assumed); at kernel and op granularity the reports equal the ground
#    truth, each graph kernel's tensors at each launch, and no graph kernel
#    is counted unknown.
#  - child_graphs TRUTH same-kernel: also a child of two nodes of the SAME
#    kernel on different tensors, launched twice: those 4 kernels are
#    unknown (each touches every live tensor, here all 6) and counted,
#    never given one node's tensor; every other graph kernel still has
#    exactly its truth's tensor (check_child_graphs.py).
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/child_graphs"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13" "$SIMGPU_LIB/libcuda.so.1"

record_like_untraced "$workload"
babeltrace2 "$e2e_tmp/trace" >"$e2e_tmp/trace.txt" 2>/dev/null || fail "babeltrace2 cannot read the trace"
# the child kernels of the 4 launches (one: 1 in each of 2, two: 2, nested: 2)
# carry node ids that no captured_node, graph_node or graph_node_clone names
python3 - "$e2e_tmp/trace.txt" >"$e2e_tmp/unnamed.out" <<'PY' || fail "child kernels' node ids: $(cat "$e2e_tmp/unnamed.out")"
import re, sys
named, records = set(), []
for line in open(sys.argv[1]):
    if re.search(r"dnntrace_api:(captured_node|graph_node|graph_node_clone|graph_mem_node):", line):
        named.update(int(v) for v in re.findall(r"\bnode_id = (\d+)", line))
    m = re.search(r"dnntrace_gpu:kernel:.* graph_node_id = (\d+)", line)
    if m:
        records.append(int(m[1]))
unnamed = [r for r in records if r and r not in named]
if len(records) != 9 or len(unnamed) != 6:
    print(f"{len(records)} graph kernel records, {len(unnamed)} with unnamed node ids; expected 9, 6")
    sys.exit(1)
PY

for granularity in kernel op; do
	report="$e2e_tmp/report-$granularity" truth="$e2e_tmp/truth"
	[ "$granularity" = op ] && truth="$e2e_tmp/truth/op"
	analyze "$e2e_tmp/trace" -o "$report" --granularity "$granularity" >"$e2e_tmp/summary.out" \
		2>"$e2e_tmp/analyze.err" || fail "analyze ($granularity) exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
	python3 "$E2E_DIR/check_graph_launch.py" report "$truth" "$report" >"$e2e_tmp/check.out" ||
		fail "$granularity granularity differs from ground truth: $(head -n 3 "$e2e_tmp/check.out")"
	grep -q '^graph kernels with unknown tensors' "$e2e_tmp/summary.out" &&
		fail "$granularity: $(grep '^graph kernels' "$e2e_tmp/summary.out")"
done

# same-kernel: the twins stay unknown and are counted; the rest as truth
dir="$e2e_tmp/same-kernel"
mkdir -p "$dir"
untraced "$workload" "$dir/truth-untraced" same-kernel >"$dir/untraced.out" 2>"$dir/untraced.err" ||
	fail "untraced same-kernel exited $?: $(tail -n 2 "$dir/untraced.err")"
record "$dir/trace" "$workload" "$dir/truth" same-kernel >"$dir/traced.out" 2>"$dir/record.err" ||
	fail "traced same-kernel exited $?: $(tail -n 2 "$dir/record.err")"
cmp -s "$dir/untraced.out" "$dir/traced.out" || fail "same-kernel: stdout differs when traced"
check_no_discarded "$dir/trace"
analyze "$dir/trace" -o "$dir/report" >"$dir/summary.out" 2>"$dir/analyze.err" ||
	fail "analyze (same-kernel) exited $?: $(tail -n 1 "$dir/analyze.err")"
grep -q '^graph kernels with unknown tensors: 4 ' "$dir/summary.out" ||
	fail "same-kernel: twins not counted unknown: $(grep '^graph kernels' "$dir/summary.out" || echo none)"
python3 "$E2E_DIR/check_child_graphs.py" "$dir/truth" "$dir/report" twin 13 \
	>"$dir/check.out" || fail "same-kernel: $(head -n 3 "$dir/check.out")"
exit 0
