#!/usr/bin/env bash
# Another interposer of a function the tracer wraps, preloaded beside it
# (tests/interceptors/next_interposer.c, as HAMi-core's libvgpu.so is in
# shared GPU clusters), finds what it wraps with dlsym(RTLD_NEXT,
# "cudaMalloc"): before or after the tracer in LD_PRELOAD, that lookup
# answers the next cudaMalloc after the interposer, never the interposer
# itself (which would call itself forever), the program's results are the
# untraced ones, every call goes through the interposer and every
# allocation is traced.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
[ -e "$SIMGPU_LIB/libcudart.so.13" ] || skip "simgpu not built ($SIMGPU_LIB)"
interposer="$HELPERS/libnext_interposer.so"
require_built "$TRACER" "$HELPERS/cuda_calls" "$interposer"

# Under the sanitizers the ASan runtime comes first in every LD_PRELOAD.
first=${asan_runtime:+$asan_runtime }
env "LD_PRELOAD=$first$interposer" "LD_LIBRARY_PATH=$SIMGPU_LIB" "${asan_env[@]}" \
	"$HELPERS/cuda_calls" kernels return >"$tmp/plain" 2>"$tmp/plain.err" ||
	fail "untraced run failed: $(tail -n 2 "$tmp/plain.err")"
grep -q 'next_interposer: 3 cudaMalloc calls passed through' "$tmp/plain.err" ||
	fail "untraced: the interposer saw $(cat "$tmp/plain.err")"

for order in after before; do
	if [ "$order" = after ]; then preload="$first$TRACER $interposer"
	else preload="$first$interposer $TRACER"; fi
	record_session "$tmp/$order.trace" "$tmp/$order.out" "$tmp/$order.err" \
		timeout -k 5 60 env "LD_PRELOAD=$preload" "LD_LIBRARY_PATH=$SIMGPU_LIB" "${asan_env[@]}" \
		"$HELPERS/cuda_calls" kernels return || fail "interposer $order the tracer: run failed (status $?): $(tail -n 2 "$tmp/$order.err")"
	same_results "$tmp/plain" "$tmp/$order.out" || fail "interposer $order the tracer: results differ"
	grep -q 'answered' "$tmp/$order.err" && fail "interposer $order the tracer: $(grep answered "$tmp/$order.err")"
	grep -q 'next_interposer: 3 cudaMalloc calls passed through' "$tmp/$order.err" ||
		fail "interposer $order the tracer: $(grep next_interposer "$tmp/$order.err")"
	n=$(events "$tmp/$order.trace" | grep -c 'dnntrace_api:alloc: .*api = ( "cudaMalloc" .*result = 0')
	[ "$n" = 3 ] || fail "interposer $order the tracer: $n cudaMalloc events, want 3"
done
exit 0
