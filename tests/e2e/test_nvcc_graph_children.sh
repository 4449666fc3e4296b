#!/usr/bin/env bash
# End-to-end: kernels of child graph nodes in a CUDA C++ program compiled by
# the toolkit's nvcc (tests/nvcc/nv_graph_children.cu: a child of one
# kernel named like the parent's own, a child of two kernels, a child inside
# a child), on simgpu, which numbers them as an H200 did (their records
# carry node ids no event names). Traced and untraced the same; at kernel
# and op granularity the analysis equals the program's ground truth, each
# graph kernel's tensors at each launch, and no graph kernel is unknown.
# With same-kernel, a child of two nodes of the same kernel on different
# tensors too, launched twice: those 4 kernels unknown and counted, never
# given one node's tensor (the rest as truth: tests/e2e/check_child_graphs.py).
# The same program runs on a real GPU (tests/gpu/run_gpu_check.sh runs
# TRUTH_DIR only, where every kernel must be resolved).
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

name=nv_graph_children
program="$DNNTRACE_BUILD/nvcc/$name"
require_built "$program"
for mode in resolved same-kernel; do
	dir="$e2e_tmp/$mode" args=()
	[ "$mode" = same-kernel ] && args=(same-kernel)
	mkdir -p "$dir"
	untraced "$program" "$dir/truth-untraced" "${args[@]}" >"$dir/untraced.out" 2>"$dir/untraced.err" ||
		fail "$mode: untraced exited $?: $(tail -n 2 "$dir/untraced.err")"
	record "$dir/trace" "$program" "$dir/truth" "${args[@]}" >"$dir/traced.out" 2>"$dir/record.err" ||
		fail "$mode: traced exited $?: $(tail -n 2 "$dir/record.err")"
	cmp -s "$dir/untraced.out" "$dir/traced.out" || fail "$mode: stdout differs when traced"
	diff -r "$dir/truth-untraced" "$dir/truth" >/dev/null || fail "$mode: ground truth differs when traced"
	check_no_discarded "$dir/trace"
done

dir="$e2e_tmp/resolved"
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

dir="$e2e_tmp/same-kernel"
analyze "$dir/trace" -o "$dir/report" >"$dir/summary.out" 2>"$dir/analyze.err" ||
	fail "analyze (same-kernel) exited $?: $(tail -n 1 "$dir/analyze.err")"
grep -q '^graph kernels with unknown tensors: 4 ' "$dir/summary.out" ||
	fail "same-kernel: twins not counted unknown: $(grep '^graph kernels' "$dir/summary.out" || echo none)"
python3 "$E2E_DIR/check_child_graphs.py" "$dir/truth" "$dir/report" _Z4twinPfi 13 \
	>"$dir/check.out" || fail "same-kernel: $(head -n 3 "$dir/check.out")"
exit 0
