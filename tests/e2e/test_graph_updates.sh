#!/usr/bin/env bash
# End-to-end: kernels inside CUDA graphs touch their tensors
# (tests/nvcc/nv_graph_updates.cu, nvcc-compiled, on simgpu): a graph
# captured from a cuBLAS GEMM and two <<<>>> launches, a graph built by
# hand, cudaGraphKernelNodeSetParams (the exec keeps its node),
# cudaGraphExecKernelNodeSetParams, cudaGraphExecUpdate, a clone, copy
# and set nodes and a child graph node. Same
# output and status traced and untraced; at kernel and op granularity the
# analysis equals the program's ground truth tensor by tensor (each graph
# kernel's tensors at each launch, the GEMM's roles and shapes included),
# no graph kernel is counted unknown, and swap.csv never offers a tensor
# as idle across a kernel that uses it (w is used only inside replays);
# memset and memcpy nodes write what the kernels after them read; a child
# graph node runs its copy of the child graph.
# Before graph nodes were traced (format 3) every graph kernel here had no
# tensors: x and y were offered as idle across the replays that use them.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

name=nv_graph_updates
dir="$e2e_tmp/$name"
program="$DNNTRACE_BUILD/nvcc/$name"
require_built "$program" "$SIMGPU_LIB/libcublas.so"
mkdir -p "$dir"
untraced "$program" "$dir/truth-untraced" >"$dir/untraced.out" 2>"$dir/untraced.err" ||
	fail "untraced exited $?: $(tail -n 2 "$dir/untraced.err")"
record "$dir/trace" "$program" "$dir/truth" >"$dir/traced.out" 2>"$dir/record.err" ||
	fail "traced exited $?: $(tail -n 2 "$dir/record.err")"
cmp -s "$dir/untraced.out" "$dir/traced.out" || fail "stdout differs when traced"
diff -r "$dir/truth-untraced" "$dir/truth" >/dev/null || fail "ground truth differs when traced"
check_no_discarded "$dir/trace"

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
