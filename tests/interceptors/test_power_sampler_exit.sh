#!/usr/bin/env bash
# The tracer's power sampler thread (DNNTRACE_POWER_MS, reading the
# simulated libnvidia-ml.so.1) never changes how a traced process ends:
# a process whose main thread calls pthread_exit while a worker makes the
# CUDA calls ends when the worker does (the sampler is a tracer thread: it
# must not keep the process alive, and the worker's thread stops and joins
# it: exit(0) runs on the worker's thread); and a process that calls
# exit() from main. Status 0, nothing on stderr, same results as untraced,
# samples in the trace. Under timeout -s KILL: a hang fails.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
[ -e "$SIMGPU_LIB/libnvidia-ml.so.1" ] || skip "simgpu not built ($SIMGPU_LIB)"
require_built "$TRACER" "$HELPERS/cuda_calls"
# ASan interposes pthread_create before us: last-thread exit is not tracked.
[ ${#asan_env[@]} -eq 0 ] || skip "last-thread exit is not tracked under ASan"
LIMIT=20

run_case() { # NAME CMD_ARGS...
	local name=$1 rc
	shift
	timeout -s KILL $LIMIT env LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/cuda_calls" "$@" \
		>"$tmp/$name.plain" || fail "$name: untraced run ended with status $?"
	record_raw "$tmp/$name.trace" "$tmp/$name.out" "$tmp/$name.err" "$SIMGPU_LIB" \
		timeout -s KILL $LIMIT env DNNTRACE_POWER_MS=1 "$HELPERS/cuda_calls" "$@"
	rc=$?
	[ $rc = 0 ] || fail "$name: traced run ended with status $rc (137: hung)"
	[ -s "$tmp/$name.err" ] && fail "$name: stderr: $(head -n 2 "$tmp/$name.err")"
	same_results "$tmp/$name.plain" "$tmp/$name.out" || fail "$name: results differ when traced"
	events "$tmp/$name.trace" | grep -q 'dnntrace_gpu:power' || fail "$name: no power sample"
}

run_case main_first last_thread main_first
run_case exit kernels exit
exit 0
