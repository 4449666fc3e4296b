#!/usr/bin/env bash
# End-to-end: graph kernels touch their tensors wherever CUPTI raises an
# instantiation's GRAPHEXEC_CREATE_STARTING / GRAPHEXEC_CREATED callbacks.
# On an H200 (CUPTI 13.0) the clones of an instantiation named no exec,
# and a tracer holding them from STARTING to CREATED did not catch them;
# which order the real CUPTI uses is not known. So the tracer brackets
# instantiations itself (the cudaGraphInstantiate* / cuGraphInstantiate*
# wrappers) and must give the same answers for each order simgpu can
# raise (SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS): around, after, unnamed
# (CREATED naming no exec); none, the default, is what every other graph
# test runs. The program is tests/nvcc/nv_graph_updates.cu (captured and
# hand-built graphs, exec updates, a clone, a child graph node): at kernel
# granularity the analysis equals the program's ground truth, and no
# graph kernel is counted unknown.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

name=nv_graph_updates
program="$DNNTRACE_BUILD/nvcc/$name"
require_built "$program" "$SIMGPU_LIB/libcublas.so"
for order in around after unnamed; do
	dir="$e2e_tmp/$order"
	mkdir -p "$dir"
	SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS=$order record "$dir/trace" "$program" "$dir/truth" \
		>"$dir/traced.out" 2>"$dir/record.err" ||
		fail "$order: traced exited $?: $(tail -n 2 "$dir/record.err")"
	check_no_discarded "$dir/trace"
	analyze "$dir/trace" -o "$dir/report" >"$dir/summary.out" 2>"$dir/analyze.err" ||
		fail "$order: analyze exited $?: $(tail -n 1 "$dir/analyze.err")"
	grep -q '^graph kernels with unknown tensors' "$dir/summary.out" &&
		fail "$order: $(grep '^graph kernels' "$dir/summary.out")"
	python3 "$E2E_DIR/check_graph_launch.py" report "$dir/truth" "$dir/report" >"$dir/check.out" ||
		fail "$order: differs from ground truth: $(head -n 3 "$dir/check.out")"
done
exit 0
