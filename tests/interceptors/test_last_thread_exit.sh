#!/usr/bin/env bash
# A traced process ends when its last application thread ends with
# pthread_exit, as untraced (LTTng-UST's listener threads must not keep it
# alive), and the tracer flushes CUPTI first: status 0, every call's event
# and every GPU record in the trace. Variants: main ends while a worker runs
# (the worker returns, or ends with pthread_exit), main ends last after
# joining, main alone; and /tmp/pe.c-style with no session at all. Every run
# is under timeout -s KILL so a regression fails instead of hanging.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
[ -e "$SIMGPU_LIB/libcudart.so.13" ] || skip "simgpu not built ($SIMGPU_LIB)"
require_built "$TRACER" "$HELPERS/cuda_calls"
# ASan interposes pthread_create before us: every thread looks created by
# libasan, so the count of application threads never reaches 0 there.
[ ${#asan_env[@]} -eq 0 ] || skip "last-thread exit is not tracked under ASan"

LIMIT=20
mapfile -t env_args < <(traced_env "$SIMGPU_LIB")

run_case() { # NAME CMD_ARGS...
	local name=$1 rc
	shift
	timeout -s KILL $LIMIT env LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/cuda_calls" "$@" \
		>"$tmp/$name.plain" || fail "$name: untraced run ended with status $?"
	# Preloaded, no session: the listener threads are there all the same.
	timeout -s KILL $LIMIT env "${env_args[@]}" "$HELPERS/cuda_calls" "$@" >"$tmp/$name.idle"
	rc=$?
	[ $rc = 0 ] || fail "$name: preloaded run (no session) ended with status $rc (137: hung)"
	same_results "$tmp/$name.plain" "$tmp/$name.idle" || fail "$name: results differ preloaded"
	record_raw "$tmp/$name.trace" "$tmp/$name.out" "$tmp/$name.err" "$SIMGPU_LIB" \
		timeout -s KILL $LIMIT "$HELPERS/cuda_calls" "$@"
	rc=$?
	[ $rc = 0 ] || fail "$name: traced run ended with status $rc (137: hung)"
	same_results "$tmp/$name.plain" "$tmp/$name.out" || fail "$name: results differ when traced"
	events "$tmp/$name.trace" >/dev/null
	babeltrace2 --clock-cycles "$tmp/$name.trace" | python3 "$CHECK_EVENTS" kernels "$tmp/$name.out" ||
		fail "$name: trace check failed"
}

run_case main_first last_thread main_first
run_case worker_exit last_thread worker_exit
run_case main_last last_thread main_last
run_case main_alone kernels pthread_exit
exit 0
