#!/usr/bin/env bash
# End-to-end: nvcc-compiled programs that use libraries and graphs
# (tests/nvcc/): nv_cublas (cublasSgemm from a .cu between <<<>>> launches,
# on simgpu's libcublas.so.13) and nv_graph (a CUDA graph captured from
# <<<>>> launches, launched twice). Same output and status traced and
# untraced; the analysis equals each program's ground truth exactly.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

check_program nv_cublas truth
check_program nv_graph truth
exit 0
