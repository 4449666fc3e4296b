#!/usr/bin/env bash
# The tracer's dlsym wrapper: dlsym(RTLD_NEXT) and dlsym(RTLD_DEFAULT) made
# by the program and its libraries answer exactly as untraced (the caller is
# preserved: libdlsym_probe_a's RTLD_NEXT lookup finds b's probe, not its
# own); dlsym(handle, name) on a runtime dlopen()ed RTLD_LOCAL answers our
# wrapper for the exact names we wrap only (cudaMalloc, cudaFree), never for
# names they are a prefix of (cudaMallocArray, cudaMalloc3DArray) nor for
# others; calls through the answers give the real results and, on simgpu,
# are traced (one alloc event with the pointer the program got, one free
# event ending its tensor).
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
require_built "$TRACER" "$HELPERS/dlsym_host"

run_host() { # OUT ENV... : dlsym_host on $runtime
	local out=$1
	shift
	env "$@" "$HELPERS/dlsym_host" "$runtime" >"$out" || fail "dlsym_host failed ($*)"
}

ran=0
for libdir in "$REAL_CUDART_DIR" "$SIMGPU_LIB"; do
	runtime="$libdir/libcudart.so.13"
	[ -e "$runtime" ] || continue
	ran=$((ran + 1))
	mapfile -t traced < <(traced_env "$libdir")
	run_host "$tmp/plain" "LD_LIBRARY_PATH=$HELPERS"
	run_host "$tmp/preloaded" "${traced[@]}" "LD_LIBRARY_PATH=$HELPERS"
	grep -qx 'next_from_a b' "$tmp/plain" || fail "untraced RTLD_NEXT lookup: $(head -n 1 "$tmp/plain")"
	grep -qx 'next_from_a b' "$tmp/preloaded" ||
		fail "preloaded: dlsym(RTLD_NEXT) made in a library no longer finds the next one ($(head -n 1 "$tmp/preloaded"))"
	grep -qx 'default a' "$tmp/preloaded" || fail "preloaded: dlsym(RTLD_DEFAULT) changed"
	for name in cudaMalloc cudaFree; do
		grep -qx "lookup $name libcudart.so.13" "$tmp/plain" || fail "untraced lookup of $name"
		grep -qx "lookup $name libdnntrace.so" "$tmp/preloaded" ||
			fail "preloaded dlsym(handle, $name) is not our wrapper: $(grep "lookup $name " "$tmp/preloaded")"
	done
	# Not wrapped: the same answer as untraced (NULL where the runtime lacks it).
	for name in cudaMallocArray cudaMalloc3DArray cudaGetDeviceCount; do
		want=$(grep "^lookup $name " "$tmp/plain")
		[ -n "$want" ] || fail "untraced run printed no lookup of $name"
		grep -qx "$want" "$tmp/preloaded" ||
			fail "preloaded dlsym(handle, $name) changed: $(grep "^lookup $name " "$tmp/preloaded"), untraced: $want"
	done
	same_results <(grep '^cuda' "$tmp/plain") <(grep '^cuda' "$tmp/preloaded") ||
		fail "results through dlsym'd pointers differ on $libdir"

	[ "$libdir" = "$SIMGPU_LIB" ] || continue
	record_raw "$tmp/trace" "$tmp/traced" "$tmp/traced.err" "$HELPERS:$libdir" \
		"$HELPERS/dlsym_host" "$runtime" || fail "recorded run failed"
	ptr=$(awk '$1 == "cudaMalloc" { print $4 }' "$tmp/traced")
	[ "$(awk '$1 == "cudaMalloc" { print $2 }' "$tmp/traced")" = 0 ] || fail "cudaMalloc failed on simgpu"
	events "$tmp/trace" >"$tmp/events.txt"
	n_alloc=$(grep -c "dnntrace_api:alloc: .*api = ( \"cudaMalloc\" .*ptr = $ptr,.*tensor_id = 0, result = 0" "$tmp/events.txt")
	[ "$n_alloc" = 1 ] || fail "want one alloc event for $ptr with tensor 0, got $n_alloc"
	# a free event names the tensor it ends (tensor 0: the allocation at $ptr)
	n_free=$(grep -c "dnntrace_api:free: .*api = ( \"cudaFree\" .*tensor_id = 0, result = 0" "$tmp/events.txt")
	[ "$n_free" = 1 ] || fail "want one free event ending tensor 0 (at $ptr), got $n_free"
done
[ "$ran" -gt 0 ] || skip "neither the real nor the simulated libcudart.so.13 is there"
exit 0
