#!/usr/bin/env bash
# End-to-end: CUDA graph memory nodes (tests/nvcc/nv_graph_memory.cu,
# nvcc-compiled, on simgpu): alloc and free nodes built by hand,
# cudaMallocAsync / cudaFreeAsync captured into a graph, and an allocation
# a graph leaves live that an ordinary kernel uses and cudaFreeAsync /
# cudaFree end. Same output and status traced and untraced; the analysis
# gives each launch's allocation a lifetime (a tensor) of its own, which
# the launch's kernels (and the ordinary kernel after it) touch, exactly
# as the program's ground truth says (check_graph_memory.py), no graph
# kernel is counted unknown, and swap.csv never offers a lifetime as idle
# across a kernel that uses it.
# Before memory nodes were traced (format 4) the explicit graphs' kernels
# touched nothing and the captured allocation was one tensor freed before
# the graph ever ran.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

name=nv_graph_memory
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
report="$dir/report"
analyze "$dir/trace" -o "$report" >"$dir/summary.out" 2>"$dir/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$dir/analyze.err")"
python3 "$E2E_DIR/check_graph_memory.py" "$dir/truth" "$report" >"$dir/check.out" ||
	fail "analysis differs from ground truth: $(head -n 3 "$dir/check.out")"
grep -q '^graph kernels with unknown tensors' "$dir/summary.out" &&
	fail "$(grep '^graph kernels' "$dir/summary.out")"
exit 0
