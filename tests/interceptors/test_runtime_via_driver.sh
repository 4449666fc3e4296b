#!/usr/bin/env bash
# "A cudaMalloc that cudart implements with cuMemAlloc is one allocation in
# the trace, not two." On simgpu, libcudart reaches libcuda.so.1 through
# cuGetProcAddress_v2, so under the preload it calls our driver wrappers.
# cuda_calls `layers runtime` (cudaMalloc, cudaMallocAsync, cudaMemcpy in and
# out, cudaMemset, cudaLaunchKernel, cudaFreeAsync, cudaFree) must give
# exactly one event per call, each with the runtime label, and no driver
# label; `layers driver` does the same work with the driver entry points
# (dlopen + dlsym of libcuda.so.1) and must get the driver labels. That the
# runtime really reached those driver functions in the traced run is seen
# through CUPTI: tests/interceptors/cupti_spy.c switches on the API records
# of the runtime calls and of the driver functions, and each runtime record
# must have the expected driver record with the same correlation id.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
# The spy sees API records only where the tracer enabled their kinds:
# --gpu-records=full (the default, work, enables none).
export DNNTRACE_GPU_RECORDS=full
[ -e "$SIMGPU_LIB/libcuda.so.1" ] || skip "simgpu's driver not built ($SIMGPU_LIB)"
require_built "$TRACER" "$HELPERS/cuda_calls" "$HELPERS/libcupti_spy.so"

# Runtime cbid -> the driver cbid it must reach (cupti_runtime_cbid.h,
# cupti_driver_cbid.h): cudaMalloc 20 -> cuMemAlloc_v2 243, cudaMallocAsync
# 373 -> cuMemAllocAsync 598, cudaMemcpy 31 -> cuMemcpyHtoD_v2 276 then
# cuMemcpyDtoH_v2 278, cudaMemset 49 -> cuMemsetD8_v2 249, cudaLaunchKernel
# 211 -> cuLaunchKernel 307, cudaFreeAsync 375 -> cuMemFreeAsync 600,
# cudaFree 22 -> cuMemFree_v2 245. In call order.
WANT_PAIRS="20:243 373:598 31:276 49:249 211:307 31:278 375:600 22:245"

# The tracer takes libcupti.so.13 from beside the libcudart it uses: the spy.
spy="$tmp/spy"
mkdir -p "$spy"
ln -s "$SIMGPU_LIB/libcudart.so.13" "$spy/libcudart.so.13"
ln -s "$SIMGPU_LIB/libcuda.so.1" "$spy/libcuda.so.1"
ln -s "$HELPERS/libcupti_spy.so" "$spy/libcupti.so.13"

run_level() { # LEVEL
	local name=$1
	LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/cuda_calls" layers "$name" >"$tmp/$name.plain" ||
		fail "$name: untraced run failed"
	(export CUPTI_SPY_LOG="$tmp/$name.log" CUPTI_SPY_RUNTIME_CBIDS="20 22 373 375" \
		CUPTI_SPY_DRIVER_CBIDS="243 245 598 600 276 278 249 307"
	 record_raw "$tmp/$name.trace" "$tmp/$name.out" "$tmp/$name.err" "$spy" \
		"$HELPERS/cuda_calls" layers "$name") || fail "$name: traced run failed (status $?)"
	same_results "$tmp/$name.plain" "$tmp/$name.out" || fail "$name: results differ when traced"
	[ -s "$tmp/$name.log" ] || fail "$name: the tracer did not load the spy libcupti"
	events "$tmp/$name.trace" >"$tmp/$name.txt"
	babeltrace2 --clock-cycles "$tmp/$name.trace" | python3 "$CHECK_EVENTS" layers "$tmp/$name.out" >"$tmp/$name.check" ||
		fail "$name: trace check failed: $(grep FAIL "$tmp/$name.check" | head -n 5)"
}

run_level runtime
# runtime_cbid:driver_cbid for each runtime record, by correlation id.
got=$(awk '$1 == "api_record" { rt[$3] = $2; order[n++] = $3 }
	   $1 == "driver_record" { drv[$3] = drv[$3] (drv[$3] ? "+" : "") $2 }
	   END { for (i = 0; i < n; i++) printf "%s%s:%s", (i ? " " : ""), rt[order[i]], drv[order[i]] }' \
	"$tmp/runtime.log")
[ "$got" = "$WANT_PAIRS" ] ||
	fail "runtime: CUPTI saw runtime:driver calls [$got], want [$WANT_PAIRS] (the runtime no longer reaches the driver?)"
labels=$(sed -nE 's/.*dnntrace_api:[a-z_]+: .*api = \( "([A-Za-z_0-9]+)".*/\1/p' "$tmp/runtime.txt" | xargs)
want="cudaMalloc cudaMallocAsync cudaMemcpy cudaMemset cudaLaunchKernel cudaMemcpy cudaFreeAsync cudaFree"
[ "$labels" = "$want" ] || fail "runtime: API events [$labels], want [$want]"

run_level driver
grep -q '^api_record' "$tmp/driver.log" && fail "driver: runtime API records for direct driver calls"
labels=$(sed -nE 's/.*dnntrace_api:[a-z_]+: .*api = \( "([A-Za-z_0-9]+)".*/\1/p' "$tmp/driver.txt" | xargs)
want="cuMemAlloc_v2 cuMemAllocAsync cuMemcpyHtoD_v2 cuMemsetD8_v2 cuLaunchKernel cuMemcpyDtoH_v2 cuMemFreeAsync cuMemFree_v2"
[ "$labels" = "$want" ] || fail "driver: API events [$labels], want [$want]"
exit 0
