#!/usr/bin/env bash
# End-to-end: ordinary CUDA C++ programs compiled by the toolkit's nvcc
# (tests/nvcc/: registration through __cudaRegisterFatBinary, <<<>>> through
# __cudaPushCallConfiguration and __cudaLaunchKernel, kernel names and
# parameter layouts read from the program's own fatbin) run on simgpu
# traced and untraced with the same output and status, and the analysis
# finds exactly the kernels and tensors each program knows: nv_vadd (the
# 10-line vector add of issue 7), nv_kernels (struct and template
# parameters, __device__/__constant__ symbols, streams and events), nv_multi
# (two translation units, two kernels named fill).
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

check_program nv_vadd
[ "$(cat "$e2e_tmp/nv_vadd/traced.out")" = "no error" ] ||
	fail "nv_vadd printed $(head -c 80 "$e2e_tmp/nv_vadd/traced.out")"
grep -q '^kernels: 1$' "$e2e_tmp/nv_vadd/summary.out" || fail "nv_vadd: $(head -n 2 "$e2e_tmp/nv_vadd/summary.out")"
check_program nv_kernels truth
check_program nv_multi truth
exit 0
