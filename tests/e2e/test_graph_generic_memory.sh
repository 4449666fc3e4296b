#!/usr/bin/env bash
# End-to-end: CUDA graph memory nodes made with the generic node API
# (tests/nvcc/nv_graph_generic_memory.cu, nvcc-compiled, on simgpu): alloc
# and free nodes and kernels added with cudaGraphAddNode, and with the
# driver's cuGraphAddNode_v2 and cuGraphAddNode taken through
# cudaGetDriverEntryPointByVersion. Same output traced and untraced; the
# analysis gives each launch's allocation a lifetime (a tensor) of its own,
# which the launch's kernels touch, exactly as the program's ground truth
# says (check_graph_memory.py, nv_graph_memory's checks), no graph kernel
# is counted unknown, and swap.csv never offers a lifetime as idle across
# a kernel that uses it. The trace has each memory node as a
# graph_mem_node of the generic call that made it.
# Without the generic wrappers the graphs' kernels had unknown tensors and
# the allocations none of their lifetimes.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

name=nv_graph_generic_memory
dir="$e2e_tmp/$name"
program="$DNNTRACE_BUILD/nvcc/$name"
require_built "$program"
mkdir -p "$dir"
untraced "$program" "$dir/truth-untraced" >"$dir/untraced.out" 2>"$dir/untraced.err" ||
	fail "untraced exited $?: $(tail -n 2 "$dir/untraced.err")"
record "$dir/trace" "$program" "$dir/truth" >"$dir/traced.out" 2>"$dir/record.err" ||
	fail "traced exited $?: $(tail -n 2 "$dir/record.err")"
cmp -s "$dir/untraced.out" "$dir/traced.out" || fail "stdout differs when traced"
check_no_discarded "$dir/trace"
mem_nodes=$(babeltrace2 "$dir/trace" 2>/dev/null | grep 'dnntrace_api:graph_mem_node:' |
	sed -n 's/.*api = ( "\([A-Za-z_0-9]*\)".*is_free = \([01]\).*/\1:\2/p' | tr '\n' ' ')
[ "$mem_nodes" = "cudaGraphAddNode:0 cudaGraphAddNode:1 cuGraphAddNode_v2:0 cuGraphAddNode:1 " ] ||
	fail "graph_mem_node events (api:is_free): '$mem_nodes'"
report="$dir/report"
analyze "$dir/trace" -o "$report" >"$dir/summary.out" 2>"$dir/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$dir/analyze.err")"
python3 "$E2E_DIR/check_graph_memory.py" "$dir/truth" "$report" >"$dir/check.out" ||
	fail "analysis differs from ground truth: $(head -n 3 "$dir/check.out")"
grep -q '^graph kernels with unknown tensors' "$dir/summary.out" &&
	fail "$(grep '^graph kernels' "$dir/summary.out")"
exit 0
