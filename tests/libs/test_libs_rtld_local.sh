#!/usr/bin/env bash
# cuDNN and cuBLAS behind RTLD_LOCAL: the cuDNN legacy and cuBLAS/cuBLASLt
# test programs, built as plugins that plugin_host dlopen()s RTLD_LOCAL (as
# Python imports torch's extension modules), run on simgpu: the preloaded
# tracer cannot see libcudnn/libcublas through RTLD_NEXT, yet every call must
# be forwarded (same statuses as untraced) and traced exactly as when the
# program links them directly (the same checkers as test_cudnn_legacy_sim.sh
# and test_cublas_calls.sh).
. "$DNNTRACE_ROOT/tests/libs/lib.sh"
PLUGINS="$DNNTRACE_BUILD/tests/libs"
[ -e "$SIMGPU_LIB/libcudnn.so.9" ] && [ -e "$SIMGPU_LIB/libcublas.so.13" ] ||
	skip "simulated cuDNN/cuBLAS not built ($SIMGPU_LIB)"
require_built "$TRACER" "$HELPERS/plugin_host" "$PLUGINS/libcudnn_calls_plugin.so" \
	"$PLUGINS/libcublas_calls_plugin.so"

# cuDNN: statuses only from stdout (host addresses change between runs).
LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/plugin_host" "$PLUGINS/libcudnn_calls_plugin.so" \
	>"$tmp/cudnn.plain" || fail "cuDNN plugin failed untraced"
record_raw "$tmp/cudnn.trace" "$tmp/cudnn.out" "$tmp/cudnn.err" "$SIMGPU_LIB" \
	"$HELPERS/plugin_host" "$PLUGINS/libcudnn_calls_plugin.so" ||
	fail "cuDNN plugin failed traced (status $?): $(head -n 2 "$tmp/cudnn.err")"
grep -q 'cannot find the real' "$tmp/cudnn.err" && fail "$(head -n 1 "$tmp/cudnn.err")"
[ "$(statuses "$tmp/cudnn.plain" | wc -l)" -ge 25 ] || fail "too few cuDNN calls untraced"
diff -u <(statuses "$tmp/cudnn.plain") <(statuses "$tmp/cudnn.out") >&2 ||
	fail "cuDNN statuses differ when traced"
babeltrace2 --clock-cycles "$tmp/cudnn.trace" |
	python3 "$CUDNN_CHECK" expect "$tmp/cudnn.out" 1 ||
	fail "cuDNN calls through RTLD_LOCAL not traced as expected"

# cuBLAS and cuBLASLt.
LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/plugin_host" "$PLUGINS/libcublas_calls_plugin.so" \
	>"$tmp/cublas.plain" || fail "cuBLAS plugin failed untraced"
record_raw "$tmp/cublas.trace" "$tmp/cublas.out" "$tmp/cublas.err" "$SIMGPU_LIB" \
	"$HELPERS/plugin_host" "$PLUGINS/libcublas_calls_plugin.so" ||
	fail "cuBLAS plugin failed traced (status $?): $(head -n 2 "$tmp/cublas.err")"
grep -q 'cannot find the real' "$tmp/cublas.err" && fail "$(head -n 1 "$tmp/cublas.err")"
diff -u <(grep '^call' "$tmp/cublas.plain") <(grep '^call' "$tmp/cublas.out") >&2 ||
	fail "cuBLAS statuses differ when traced"
events "$tmp/cublas.trace" | python3 "$DNNTRACE_ROOT/tests/libs/cublas_check.py" "$tmp/cublas.out" ||
	fail "cuBLAS calls through RTLD_LOCAL not traced as expected"
exit 0
