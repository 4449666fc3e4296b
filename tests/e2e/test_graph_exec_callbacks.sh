#!/usr/bin/env bash
# End-to-end: graph kernels touch their tensors wherever CUPTI raises an
# instantiation's GRAPHEXEC_CREATE_STARTING / GRAPHEXEC_CREATED callbacks.
# On an H200 (CUPTI 13.0) the clones of an instantiation named no exec,
# and both callbacks came after them (tests/gpu/probe_graph_callbacks.cu):
# simgpu's default, "after", which every other graph test runs. The
# tracer brackets instantiations itself (the cudaGraphInstantiate* /
# cuGraphInstantiate* wrappers), so it must give the same answers for the
# other orders simgpu can raise (SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS): none,
# around, unnamed (CREATED naming no exec). The program is tests/nvcc/nv_graph_updates.cu (captured and
# hand-built graphs, exec updates, a clone, a child graph node): at kernel
# granularity the analysis equals the program's ground truth, and no
# graph kernel is counted unknown.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

name=nv_graph_updates
program="$DNNTRACE_BUILD/nvcc/$name"
require_built "$program" "$SIMGPU_LIB/libcublas.so"
for order in none around unnamed; do
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
