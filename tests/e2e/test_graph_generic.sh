#!/usr/bin/env bash
# End-to-end: kernels, copies and sets that enter CUDA graphs through the
# generic node API (tests/nvcc/nv_graph_generic.cu, nvcc-compiled, on
# simgpu): cudaGraphAddNode of kernel, memset and memcpy nodes,
# cudaGraphNodeSetParams (the exec keeps its node), cudaGraphExecNodeSetParams
# of a kernel and of a memcpy node, and the driver's cuGraphAddNode (CUDA
# 12.2's), cuGraphAddNode_v2, cuGraphNodeSetParams and
# cuGraphExecNodeSetParams taken with cudaGetDriverEntryPointByVersion. Same
# output and truth traced and untraced; at kernel and op granularity the analysis
# equals the program's ground truth tensor by tensor (each graph kernel's
# tensors at each launch), no graph kernel is counted unknown, swap.csv
# never offers a tensor as idle across a kernel that uses it, and the
# memset and memcpy nodes write what the kernels after them read. The
# trace has each generic call as one event of its own entry point (121 to
# 127; the runtime's driver calls nested in it emit none).
# Without the generic wrappers (before ids 121-127) every kernel of these
# graphs had unknown tensors, as on the H200 (gpu-check, nv_graph_add_node).
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

name=nv_graph_generic
dir="$e2e_tmp/$name"
program="$DNNTRACE_BUILD/nvcc/$name"
require_built "$program"
mkdir -p "$dir"
untraced "$program" "$dir/truth-untraced" >"$dir/untraced.out" 2>"$dir/untraced.err" ||
	fail "untraced exited $?: $(tail -n 2 "$dir/untraced.err")"
record "$dir/trace" "$program" "$dir/truth" >"$dir/traced.out" 2>"$dir/record.err" ||
	fail "traced exited $?: $(tail -n 2 "$dir/record.err")"
cmp -s "$dir/untraced.out" "$dir/traced.out" || fail "stdout differs when traced"
diff -r "$dir/truth-untraced" "$dir/truth" >/dev/null || fail "ground truth differs when traced"
check_no_discarded "$dir/trace"

# One graph_node event per generic call, labelled with the call made.
babeltrace2 "$dir/trace" 2>/dev/null | grep 'dnntrace_api:graph_node:' |
	sed -n 's/.*api = ( "\([A-Za-z_0-9]*\)".*/\1/p' | sort | uniq -c |
	awk '{print $2, $1}' >"$dir/node_events.txt"
expected="cuGraphAddNode 1
cuGraphAddNode_v2 1
cuGraphExecNodeSetParams 1
cuGraphNodeSetParams 1
cudaGraphAddNode 5
cudaGraphExecNodeSetParams 3
cudaGraphNodeSetParams 1"
[ "$(cat "$dir/node_events.txt")" = "$expected" ] ||
	fail "graph_node events by entry point: $(tr '\n' ' ' <"$dir/node_events.txt")"

for granularity in kernel op; do
	report="$dir/report-$granularity" truth="$dir/truth"
	[ "$granularity" = op ] && truth="$dir/truth/op"
	analyze "$dir/trace" -o "$report" --granularity "$granularity" >"$dir/summary.out" \
		2>"$dir/analyze.err" || fail "analyze ($granularity) exited $?: $(tail -n 1 "$dir/analyze.err")"
	python3 "$E2E_DIR/check_graph_launch.py" report "$truth" "$report" >"$dir/check.out" ||
		fail "$granularity granularity differs from ground truth: $(head -n 3 "$dir/check.out")"
	python3 "$E2E_DIR/check_swap_truth.py" "$truth" "$report" >"$dir/swap.out" ||
		fail "$granularity: $(head -n 2 "$dir/swap.out")"
	grep -q '^graph kernels with unknown tensors' "$dir/summary.out" &&
		fail "$granularity: $(grep '^graph kernels' "$dir/summary.out")"
done
exit 0
