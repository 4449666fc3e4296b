#!/usr/bin/env bash
# The tracer in front of the REAL libcudart.so.13 (no driver here: calls fail
# with cudaErrorInsufficientDriver): the program prints the same results and
# errno with and without LD_PRELOAD (no session, and traced), the trace
# records every call with that result and no tensor, CUPTI's failure is one
# status event and one stderr line, and libdnntrace.so needs no CUDA library.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
[ -e "$REAL_CUDART_DIR/libcudart.so.13" ] || skip "no real libcudart.so.13 in $REAL_CUDART_DIR"
require_built "$TRACER" "$HELPERS/cuda_calls"

needed=$(readelf -d "$TRACER" | grep NEEDED)
if grep -Eq 'libcuda|libcupti' <<<"$needed"; then fail "libdnntrace.so links CUDA: $needed"; fi

LD_LIBRARY_PATH="$REAL_CUDART_DIR" "$HELPERS/cuda_calls" api >"$tmp/plain.out" ||
	fail "cuda_calls api failed untraced"
mapfile -t env_args < <(traced_env "$REAL_CUDART_DIR")
env "${env_args[@]}" "$HELPERS/cuda_calls" api >"$tmp/preload.out" 2>"$tmp/preload.err" ||
	fail "cuda_calls api failed preloaded"
same_results "$tmp/plain.out" "$tmp/preload.out" || fail "results differ with preload (no session)"
[ -s "$tmp/preload.err" ] && fail "stderr with no session: $(head -n 1 "$tmp/preload.err")"

record_raw "$tmp/trace" "$tmp/traced.out" "$tmp/traced.err" "$REAL_CUDART_DIR" \
	"$HELPERS/cuda_calls" api || fail "traced run failed (status $?)"
same_results "$tmp/plain.out" "$tmp/traced.out" || fail "results differ when traced"
warnings=$(grep -c 'CUPTI unavailable' "$tmp/traced.err")
[ "$warnings" = 1 ] || fail "$warnings CUPTI warnings on stderr, want 1: $(head -n 2 "$tmp/traced.err")"
events "$tmp/trace" >/dev/null
babeltrace2 --clock-cycles "$tmp/trace" | python3 "$CHECK_EVENTS" real-api "$tmp/plain.out" ||
	fail "trace does not match the calls"
