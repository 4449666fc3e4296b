#!/usr/bin/env bash
# End-to-end: the TensorFlow-style workload (a plugin dlopen'ed RTLD_LOCAL
# that dlopen()s libcudart and libcuda itself and resolves them with
# dlsym(handle, ...), tensors from cuMemAllocFromPoolAsync / cuMemFreeAsync,
# kernels through cuLaunchKernel) on the simulated GPU and driver: every
# call reaches the tracer through its dlsym wrapper, once; the analyzer's
# reports equal the workload's ground truth exactly; tracing changes
# neither the program's output nor its status.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/tf_style"
require_built "$workload" "$WORKLOADS/tf_style_plugin.so" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13" "$SIMGPU_LIB/libcuda.so.1"

record_like_untraced "$workload"

check_api_paths cuMemAllocFromPoolAsync cuMemFreeAsync cuLaunchKernel stream_ordered \
	"the driver calls did not all reach the tracer through dlsym, once each"

analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >"$e2e_tmp/summary.out" 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
compare truth "$e2e_tmp/truth" "$e2e_tmp/report" >"$e2e_tmp/compare.out"
status=$?
cat "$e2e_tmp/compare.out"
[ "$status" = 0 ] || fail "analyzer reports differ from ground truth"
