#!/usr/bin/env bash
# Driver-level launches on simgpu: cuda_calls `driver_launch` takes the
# CUfunction of pair_kernel from cudaGetFuncBySymbol and launches it with
# cuLaunchKernel and cuLaunchKernelEx (kernelParams, then the packed buffer
# of `extra`) and cuLaunchCooperativeKernel; t0 and t1+16 sit inside a struct
# parameter, t2 is plain. Each launch event must carry that CUfunction, the
# name from cuFuncGetName, tensors [0, 1, 2] (layout from cuFuncGetParamInfo,
# or the packed buffer's words) and the geometry; each must have exactly one
# linked GPU kernel record of that name lasting the simulator's 2000 + 10 x 4
# blocks ns.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
[ -e "$SIMGPU_LIB/libcuda.so.1" ] || skip "simgpu's driver not built ($SIMGPU_LIB)"
require_built "$TRACER" "$HELPERS/cuda_calls"

LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/cuda_calls" driver_launch >"$tmp/plain" ||
	fail "untraced run failed"
record_raw "$tmp/trace" "$tmp/out" "$tmp/err" "$SIMGPU_LIB" "$HELPERS/cuda_calls" driver_launch ||
	fail "traced run failed (status $?)"
same_results <(grep -v '^function ' "$tmp/plain") <(grep -v '^function ' "$tmp/out") ||
	fail "results differ when traced"
events "$tmp/trace" >/dev/null
babeltrace2 --clock-cycles "$tmp/trace" | python3 "$CHECK_EVENTS" driver_launch "$tmp/out" >"$tmp/check" ||
	fail "trace check failed: $(grep FAIL "$tmp/check" | head -n 5)"
[ "$(grep -c 'dnntrace_gpu:kernel:' <(events "$tmp/trace"))" = 5 ] || fail "want 5 GPU kernel records"
exit 0
