#!/usr/bin/env bash
# A plugin linked to libcudart and dlopen()ed RTLD_LOCAL (as Python imports
# extensions): dlsym(RTLD_NEXT) cannot see its runtime, yet the preloaded
# tracer must forward to it (same results as untraced) and trace each call.
# Runs on the real runtime (failing calls) and on simgpu (tensors, GPU).
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
require_built "$TRACER" "$HELPERS/plugin_host" "$HELPERS/libcuda_plugin.so"

ran=0
for libdir in "$REAL_CUDART_DIR" "$SIMGPU_LIB"; do
	[ -e "$libdir/libcudart.so.13" ] || continue
	ran=$((ran + 1))
	LD_LIBRARY_PATH="$libdir" "$HELPERS/plugin_host" "$HELPERS/libcuda_plugin.so" \
		>"$tmp/plain.out" || fail "plugin_host failed untraced on $libdir"
	record_raw "$tmp/trace$ran" "$tmp/traced.out" "$tmp/traced.err" "$libdir" \
		"$HELPERS/plugin_host" "$HELPERS/libcuda_plugin.so" || fail "traced run failed on $libdir"
	same_results "$tmp/plain.out" "$tmp/traced.out" || fail "results differ when traced on $libdir"
	grep -q 'cannot find the real' "$tmp/traced.err" && fail "$(head -n 1 "$tmp/traced.err")"
	mode=real-api
	[ "$libdir" = "$SIMGPU_LIB" ] && mode=sim-api
	events "$tmp/trace$ran" >/dev/null
	babeltrace2 --clock-cycles "$tmp/trace$ran" | python3 "$CHECK_EVENTS" "$mode" "$tmp/plain.out" ||
		fail "trace does not match the plugin's calls on $libdir"
done
[ "$ran" -gt 0 ] || skip "neither the real nor the simulated libcudart.so.13 is there"
