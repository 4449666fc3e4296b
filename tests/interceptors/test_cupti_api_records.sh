#!/usr/bin/env bash
# CUPTI API records only where we link GPU work: the tracer enables
# cuptiActivityEnableRuntimeApi for the copy/set/launch entry points it wraps
# (not the RUNTIME kind), GPU records still link to their calls, and
# cudaMalloc/cudaFree produce no API record; when the per-call switch is
# missing or fails, or CUDA was initialised before the tracer started (a
# per-call choice made after cuInit has no effect, as on a real H100: see
# simgpu/cupti/cupti_activity.c), it falls back to the RUNTIME kind and links
# still work.
# Seen through tests/interceptors/cupti_spy.c, a pass-through libcupti.
# All of it is --gpu-records=full's way of linking (the default, work,
# asks for no API record: tests/e2e/test_gpu_records_modes.sh).
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
export DNNTRACE_GPU_RECORDS=full
[ -e "$SIMGPU_LIB/libcudart.so.13" ] || skip "simgpu not built ($SIMGPU_LIB)"
require_built "$TRACER" "$HELPERS/cuda_calls" "$HELPERS/libcupti_spy.so"

RUNTIME_KIND=5             # CUPTI_ACTIVITY_KIND_RUNTIME
# ... nvcc 13's __cudaLaunchKernel(_ptsz): 505 506; cudaGraphLaunch(_ptsz): 311 312.
# 161 cudaMemcpyPeerAsync_v4000, 449/450 cudaMemPrefetchAsync(_ptsz)_v12020.
LINKED_CBIDS="31 32 41 44 49 50 51 52 161 211 214 215 216 225 228 233 234 235 236 311 312 430 431 449 450 505 506"
# cuLaunchKernel(_ptsz), cuLaunchKernelEx(_ptsz), cuLaunchCooperativeKernel(_ptsz):
# how cuDNN and cuBLAS launch inside the library calls we link; and the
# driver's graph launches, copies and sets we wrap (cupti_driver_cbid.h).
LINKED_DRIVER_CBIDS="216 218 220 249 250 251 276 277 278 279 280 281 305 306 307 397 398 399 408 411 412 413 418 421 422 423 428 429 430 442 477 478 514 515 652 653"
MALLOC_CBID=20 FREE_CBID=22

# The tracer takes libcupti.so.13 from the directory of the libcudart it uses.
spy="$tmp/spy"
mkdir -p "$spy"
ln -s "$SIMGPU_LIB/libcudart.so.13" "$spy/libcudart.so.13"
ln -s "$HELPERS/libcupti_spy.so" "$spy/libcupti.so.13"

run_case() { # NAME [ENV=VALUE...]
	local name=$1
	shift
	local scenario=(kernels return)
	[ "$name" = after_init ] && scenario=(kernels_after_init)
	LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/cuda_calls" "${scenario[@]}" >"$tmp/$name.plain" ||
		fail "$name: untraced run failed"
	(export CUPTI_SPY_LOG="$tmp/$name.log" "$@"
	 record_raw "$tmp/$name.trace" "$tmp/$name.out" "$tmp/$name.err" "$spy" \
		"$HELPERS/cuda_calls" "${scenario[@]}") || fail "$name: traced run failed (status $?)"
	same_results "$tmp/$name.plain" "$tmp/$name.out" || fail "$name: results differ when traced"
	[ -s "$tmp/$name.log" ] || fail "$name: the tracer did not load the spy libcupti"
	events "$tmp/$name.trace" >"$tmp/$name.txt"
	babeltrace2 --clock-cycles "$tmp/$name.trace" | python3 "$CHECK_EVENTS" kernels "$tmp/$name.out" ||
		fail "$name: GPU records not linked to their calls"
}

kind_enabled() { grep -q "^kind $RUNTIME_KIND 0$" "$1"; }
api_records() { awk -v c="$2" '$1 == "api_record" && $2 == c' "$1" | wc -l; }

# Per-call API records, when simgpu's CUPTI has cuptiActivityEnableRuntimeApi.
run_case per_call
log="$tmp/per_call.log"
if grep -Eq '^runtime_api [0-9]+ 1 0$' "$log"; then
	kind_enabled "$log" && fail "per_call: RUNTIME kind enabled although per-call API records work"
	enabled=$(awk '$1 == "runtime_api" && $3 == 1 && $4 == 0 {print $2}' "$log" | sort -n | xargs)
	[ "$enabled" = "$LINKED_CBIDS" ] || fail "per_call: enabled cbids [$enabled], want [$LINKED_CBIDS]"
	enabled=$(awk '$1 == "driver_api" && $3 == 1 && $4 == 0 {print $2}' "$log" | sort -n | xargs)
	[ "$enabled" = "$LINKED_DRIVER_CBIDS" ] ||
		fail "per_call: enabled driver cbids [$enabled], want [$LINKED_DRIVER_CBIDS]"
	[ "$(api_records "$log" $MALLOC_CBID)" = 0 ] || fail "per_call: API records for cudaMalloc"
	[ "$(api_records "$log" $FREE_CBID)" = 0 ] || fail "per_call: API records for cudaFree"
	linked=$(grep -c '^api_record' "$log")
	[ "$linked" = 3 ] || fail "per_call: $linked API records, want 3 (launch, memcpy, memset)"
	grep -q 'every CUDA call' "$tmp/per_call.txt" && fail "per_call: status says fallback"
else
	echo "note: simulated CUPTI lacks cuptiActivityEnableRuntimeApi; fallback checked only" >&2
	kind_enabled "$log" || fail "per_call: no per-call API records and no RUNTIME kind"
fi

# Fallback: the per-call switch fails; the whole RUNTIME kind instead.
run_case fallback CUPTI_SPY_NO_RUNTIME_API=1
kind_enabled "$tmp/fallback.log" || fail "fallback: RUNTIME kind not enabled"
grep -q 'every CUDA call' "$tmp/fallback.txt" || fail "fallback: status does not say so"
# CUDA initialised before the first traced call (PyTorch, TensorFlow and
# nvcc programs using symbols all do): per-call API records would never
# come, so the whole kinds, and run_case has checked every link.
run_case after_init
kind_enabled "$tmp/after_init.log" || fail "after_init: RUNTIME kind not enabled"
grep -q 'every CUDA call' "$tmp/after_init.txt" || fail "after_init: status does not say so"
exit 0
