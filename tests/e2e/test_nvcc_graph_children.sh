#!/usr/bin/env bash
# End-to-end: kernels inside child graph nodes (tests/nvcc/nv_graph_children.cu,
# nvcc-compiled, on simgpu): a child of one kernel launched twice, a child of
# two different kernels, a child nested in a child. Same output and status
# traced and untraced; the analysis equals the program's ground truth
# exactly (each child kernel's tensors at each launch) and no graph kernel
# is counted unknown. tests/gpu/run_gpu_check.sh runs the same program on a
# real GPU, where the driver numbers a child's kernels anew at instantiation.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

check_program nv_graph_children truth
summary="$e2e_tmp/nv_graph_children/summary.out"
grep -q '^graph kernels with unknown tensors' "$summary" && fail "$(grep '^graph kernels' "$summary")"
exit 0
