#!/usr/bin/env bash
# End-to-end: ordinary CUDA C++ programs compiled by the toolkit's nvcc
# (tests/nvcc/: registration through __cudaRegisterFatBinary, <<<>>> through
# __cudaPushCallConfiguration and __cudaLaunchKernel, kernel names and
# parameter layouts read from the program's own fatbin) run on simgpu
# traced and untraced with the same output and status, and the analysis
# finds exactly the kernels and tensors each program knows: nv_kernels
# (struct and template parameters, __device__/__constant__ symbols, streams
# and events), nv_multi (two translation units, two kernels named fill).
# The bare vector add: test_nvcc_vadd.sh.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

check_program nv_kernels truth
check_program nv_multi truth
exit 0
