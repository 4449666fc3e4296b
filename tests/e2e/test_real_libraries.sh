#!/usr/bin/env bash
# End-to-end on the REAL CUDA 13 libraries of the toolkit (no GPU, no driver
# here): programs calling cudart, cuBLAS, cuDNN and the driver API get the
# same results untraced, preloaded without a session and recorded with
# `dnntrace record`; nothing hangs (every run under a timeout); the trace
# holds each failed call with its result and creates no tensor.
#
# What can run here: the real libcudart/cuBLAS/cuDNN load and fail (no
# driver: cudaErrorInsufficientDriver). The real libcuda.so.1 does not exist,
# so a program linked -lcuda cannot even start (the loader's exit 127,
# identical with the preload). The toolkit's link stub lib64/stubs/libcuda.so
# (SONAME libcuda.so.1) does load once found under that name: every driver
# call then answers CUDA_ERROR_STUB_LIBRARY (34), and cudart reaching it
# through dlopen/dlsym/cuGetProcAddress answers cudaErrorStubLibrary. Both
# setups are checked.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
cuda=${CUDA_HOME:-/usr/local/cuda}
runtime_calls="$WORKLOADS/real_runtime_calls"
driver_calls="$WORKLOADS/real_driver_calls"
for lib in libcudart.so.13 libcublas.so.13 libcudnn.so.9 stubs/libcuda.so; do
	[ -e "$cuda/lib64/$lib" ] || skip "no $lib in $cuda/lib64"
done
require_built "$runtime_calls" "$driver_calls" "$DNNTRACE_BUILD/lib/libdnntrace.so"

stub_dir="$e2e_tmp/stub-driver"
mkdir -p "$stub_dir"
ln -s "$cuda/lib64/stubs/libcuda.so" "$stub_dir/libcuda.so.1"
preload="$DNNTRACE_BUILD/lib/libdnntrace.so"
[ -n "$asan_runtime" ] && preload="$asan_runtime $preload"
limit=20

# check NAME LIBRARY_PATH EXPECT_LINE PROGRAM: the three runs agree, the
# output shows the real library answered (EXPECT_LINE), the trace matches.
check() {
	local name=$1 libpath=$2 expect=$3 program=$4 out="$e2e_tmp/$1" status
	LD_LIBRARY_PATH=$libpath timeout "$limit" "$program" >"$out.plain" 2>"$out.plain.err"
	status=$?
	[ "$status" = 124 ] && fail "$name: hung untraced, after: $(tail -n 1 "$out.plain")"
	[ "$status" = 0 ] || fail "$name: exited $status untraced: $(head -n 1 "$out.plain.err")"
	grep -qxF "$expect" "$out.plain" || fail "$name: no line '$expect' (not the real library?): $(head -n 4 "$out.plain" | tr '\n' ' ')"

	env "${tracer_env[@]}" LD_PRELOAD="$preload" LD_LIBRARY_PATH="$libpath" \
		timeout "$limit" "$program" >"$out.preloaded" 2>"$out.preloaded.err"
	status=$?
	[ "$status" = 124 ] && fail "$name: hung preloaded, after: $(tail -n 1 "$out.preloaded")"
	[ "$status" = 0 ] || fail "$name: exited $status preloaded: $(head -n 1 "$out.preloaded.err")"
	diff -u "$out.plain" "$out.preloaded" >&2 || fail "$name: results differ when preloaded (no session)"

	"${record_isolation[@]}" env "${tracer_env[@]}" LD_LIBRARY_PATH="$libpath" \
		timeout $((limit + 30)) "$DNNTRACE" record -o "$out.trace" -- \
		timeout "$limit" "$program" >"$out.traced" 2>"$out.record.err"
	status=$?
	[ "$status" = 124 ] && fail "$name: hung when recorded"
	[ "$status" = 0 ] || fail "$name: record exited $status: $(tail -n 2 "$out.record.err")"
	diff -u "$out.plain" "$out.traced" >&2 || fail "$name: results differ when recorded"
	check_no_discarded "$out.trace"
	babeltrace2 "$out.trace" >"$out.text" 2>/dev/null || fail "$name: babeltrace2 cannot read the trace"
	python3 "$E2E_DIR/check_real_calls.py" "$out.plain" "$out.text" ||
		fail "$name: the trace does not hold the failed calls"
}


check runtime-no-driver "$cuda/lib64" "cudaMalloc 35" "$runtime_calls"
check runtime-stub-driver "$stub_dir:$cuda/lib64" "cudaMalloc 34" "$runtime_calls"
check driver-stub "$stub_dir" "cuMemAlloc_v2 34" "$driver_calls"

# No libcuda.so.1 at all: the loader refuses the -lcuda program, preload or not.
LD_LIBRARY_PATH= timeout "$limit" "$driver_calls" >/dev/null 2>"$e2e_tmp/noload.plain"
plain_status=$?
env "${tracer_env[@]}" LD_PRELOAD="$preload" LD_LIBRARY_PATH= \
	timeout "$limit" "$driver_calls" >/dev/null 2>"$e2e_tmp/noload.preloaded"
preloaded_status=$?
[ "$plain_status" = 127 ] || fail "driver program without libcuda.so.1 exited $plain_status, expected 127"
[ "$preloaded_status" = "$plain_status" ] ||
	fail "driver program without libcuda.so.1: exit $preloaded_status preloaded, $plain_status untraced"
grep -q 'libcuda.so.1' "$e2e_tmp/noload.preloaded" || fail "preloaded: the loader did not name libcuda.so.1"
exit 0
