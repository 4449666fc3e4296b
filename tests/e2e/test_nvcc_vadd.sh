#!/usr/bin/env bash
# End-to-end: the 10-line vector add of issue 7 (tests/nvcc/nv_vadd.cu),
# compiled by the toolkit's nvcc with -arch=sm_90 -cudart shared, starts on
# simgpu (it died with "undefined symbol: __cudaRegisterFatBinary" before),
# prints the same line traced and untraced with the same status, and the
# analysis finds its one kernel, by its mangled name, using its 3 tensors.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

check_program nv_vadd
dir="$e2e_tmp/nv_vadd"
[ "$(cat "$dir/traced.out")" = "no error" ] || fail "nv_vadd printed $(head -c 80 "$dir/traced.out")"
grep -q '^kernels: 1$' "$dir/summary.out" || fail "nv_vadd: $(head -n 2 "$dir/summary.out")"
grep -q '^tensors: 3 ' "$dir/summary.out" || fail "nv_vadd: $(sed -n 3p "$dir/summary.out")"
row=$(sed -n 2p "$dir/report/kernels.csv" | cut -d, -f7,8,11)
[ "$row" = "_Z4vaddPKfS0_Pfi,__cudaLaunchKernel,0 1 2" ] || fail "nv_vadd kernel row: $row"
exit 0
