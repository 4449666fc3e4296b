#!/usr/bin/env bash
# The driver API wrappers. On the toolkit's stub libcuda (every call fails):
# same results with and without the preload, and each direct call traced
# with its failing result. On simgpu's libcuda.so.1 (when built): same
# results; cuGetProcAddress_v2 hands back our wrapper of exactly the version
# asked for (cuMemAlloc at 13000 -> cuMemAlloc_v2, cuLaunchKernel per-thread
# -> cuLaunchKernel_ptsz, cuMemcpyHtoD per-thread -> cuMemcpyHtoD_v2_ptds),
# never for the 32-bit ABI (cuMemAlloc at 2000) nor an unwrapped function;
# allocations direct and through those pointers are traced as tensors 0, 1.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
require_built "$TRACER" "$HELPERS/driver_calls"
STUB="${CUDA_HOME:-/usr/local/cuda}/lib64/stubs/libcuda.so"

# api tensor_id result of alloc/free events, one per line.
alloc_free() {
	events "$1" | grep -E 'dnntrace_api:(alloc|free):' |
		sed -E 's/.*api = \( "([A-Za-z_0-9]+)".*tensor_id = (-?[0-9]+), result = (-?[0-9]+).*/\1 \2 \3/'
}

ran=0
if [ -e "$STUB" ]; then
	ran=1
	mkdir -p "$tmp/stub" && ln -s "$STUB" "$tmp/stub/libcuda.so.1"
	LD_LIBRARY_PATH="$tmp/stub" "$HELPERS/driver_calls" >"$tmp/stub.plain" || fail "stub: untraced run failed"
	record_raw "$tmp/stub.trace" "$tmp/stub.out" "$tmp/stub.err" "$tmp/stub" "$HELPERS/driver_calls" ||
		fail "stub: traced run failed"
	diff "$tmp/stub.plain" "$tmp/stub.out" >&2 || fail "stub: results differ when traced"
	rc=$(awk '$1 == "cuMemAlloc_v2" { print $2 }' "$tmp/stub.out")
	[ "$rc" != 0 ] || fail "stub: cuMemAlloc_v2 succeeded on the stub?"
	got=$(alloc_free "$tmp/stub.trace" | tr '\n' ';')
	# cuMemFree_v2 of 0 only forwards (like cudaFree(NULL)): no event.
	[ "$got" = "cuMemAlloc_v2 -1 $rc;" ] || fail "stub: events [$got], want [cuMemAlloc_v2 -1 $rc;]"
	events "$tmp/stub.trace" | grep -q "dnntrace_api:memset: .*api = ( \"cuMemsetD8_v2\"" ||
		fail "stub: cuMemsetD8_v2 not traced"
fi

if [ -e "$SIMGPU_LIB/libcuda.so.1" ]; then
	ran=1
	LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/driver_calls" >"$tmp/sim.plain" || fail "sim: untraced run failed"
	record_raw "$tmp/sim.trace" "$tmp/sim.out" "$tmp/sim.err" "$SIMGPU_LIB" "$HELPERS/driver_calls" ||
		fail "sim: traced run failed"
	same_results <(grep -v '^proc ' "$tmp/sim.plain") <(grep -v '^proc ' "$tmp/sim.out") ||
		fail "sim: results differ when traced"
	want_proc() { # LINE
		grep -qx "$1" "$tmp/sim.out" || fail "sim: want '$1', got: $(grep "^${1% * *} " "$tmp/sim.out")"
	}
	want_proc "proc cuMemAlloc@13000 0 ours:cuMemAlloc_v2"
	want_proc "proc cuMemFree@13000 0 ours:cuMemFree_v2"
	want_proc "proc cuLaunchKernel@13000 0 ours:cuLaunchKernel"
	want_proc "proc cuLaunchKernel@13000/ptds 0 ours:cuLaunchKernel_ptsz"
	want_proc "proc cuMemcpyHtoD@13000/ptds 0 ours:cuMemcpyHtoD_v2_ptds"
	want_proc "proc cuDeviceGetCount@13000 0 real"
	grep -q '^proc cuMemAlloc@2000 .*ours' "$tmp/sim.out" && fail "sim: the 32-bit cuMemAlloc was substituted"
	got=$(alloc_free "$tmp/sim.trace" | tr '\n' ';')
	want="cuMemAlloc_v2 0 0;cuMemFree_v2 0 0;cuMemAlloc_v2 1 0;cuMemFree_v2 1 0;"
	[ "$got" = "$want" ] || fail "sim: events [$got], want [$want]"
fi
[ "$ran" = 1 ] || skip "neither the toolkit's stub libcuda nor simgpu's libcuda.so.1 is there"
exit 0
