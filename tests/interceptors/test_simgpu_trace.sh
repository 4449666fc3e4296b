#!/usr/bin/env bash
# The tracer on the simulated GPU: every wrapped entry point (tensor ids,
# frees, nesting: simgpu's cudaMallocHost calls cudaHostAlloc, one event
# only), tensors found inside struct parameters, GPU records linked to their
# calls with CLOCK_MONOTONIC times and none lost at return from main or
# exit(), nvcc 13's launches (__cudaGetKernel once, __cudaLaunchKernel[_ptsz]
# through the handle), 8 threads at once, and the CUPTI-busy fallback.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
[ -e "$SIMGPU_LIB/libcudart.so.13" ] || skip "simgpu not built ($SIMGPU_LIB)"
require_built "$TRACER" "$HELPERS/cuda_calls"

run_case() { # NAME CHECK_MODE CHECK_ARG CMD_ARGS...
	local name=$1 mode=$2 arg=$3
	shift 3
	LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/cuda_calls" "$@" >"$tmp/$name.plain" ||
		fail "$name: cuda_calls $* failed untraced"
	record_raw "$tmp/$name.trace" "$tmp/$name.out" "$tmp/$name.err" "$SIMGPU_LIB" \
		"$HELPERS/cuda_calls" "$@" || fail "$name: traced run failed (status $?)"
	[ "$mode" = threads ] || same_results "$tmp/$name.plain" "$tmp/$name.out" ||
		fail "$name: results differ when traced"
	[ "$mode" = threads ] || arg="$tmp/$name.out"
	events "$tmp/$name.trace" >/dev/null
	babeltrace2 --clock-cycles "$tmp/$name.trace" | python3 "$CHECK_EVENTS" "$mode" "$arg" ||
		fail "$name: trace check failed"
}

run_case api sim-api - api
run_case kernels_return kernels - kernels return
run_case kernels_exit kernels - kernels exit
run_case nvcc13 nvcc13 - nvcc13
run_case threads threads 8 threads 8

# CUPTI busy: one warning, status(0), no GPU records, API events all there.
LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/cuda_calls" api >"$tmp/busy.plain"
SIMGPU_CUPTI_BUSY=1 record_raw "$tmp/busy.trace" "$tmp/busy.out" "$tmp/busy.err" "$SIMGPU_LIB" \
	"$HELPERS/cuda_calls" api || fail "busy: traced run failed"
same_results "$tmp/busy.plain" "$tmp/busy.out" || fail "busy: results differ when traced"
[ "$(grep -c 'CUPTI unavailable' "$tmp/busy.err")" = 1 ] || fail "busy: want one CUPTI warning"
events "$tmp/busy.trace" >"$tmp/busy.txt"
grep -q 'cupti_ok = 0' "$tmp/busy.txt" || fail "busy: no status(0)"
grep -q 'dnntrace_gpu:' "$tmp/busy.txt" && fail "busy: GPU records while CUPTI is busy"
babeltrace2 --clock-cycles "$tmp/busy.trace" | python3 "$CHECK_EVENTS" calls "$tmp/busy.out" ||
	fail "busy: API events do not match the calls"
exit 0
