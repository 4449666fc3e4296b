#!/usr/bin/env bash
# The cuDNN wrappers return exactly what cuDNN returns: every wrapped call
# made with a NULL handle (and the descriptor setters) gives the same status
# untraced, preloaded without a session, and recorded; the recording holds
# one event per traced call, in order, with that status. Run on the real
# libcudnn.so.9 of the toolkit (no GPU here: cudnnCreate fails, the rest
# still answers) and on the simulated one when it is built.
. "$DNNTRACE_ROOT/tests/libs/lib.sh"
require_built "$TRACER" "$DNNTRACE_BUILD/tests/libs/cudnn_calls" "$DNNTRACE_BUILD/tests/libs/cudnn_graph_calls"

libdirs=()
[ -e "$REAL_CUDART_DIR/libcudnn.so.9" ] && libdirs+=("$REAL_CUDART_DIR")
[ -e "$SIMGPU_LIB/libcudnn.so.9" ] && libdirs+=("$SIMGPU_LIB")
[ ${#libdirs[@]} -gt 0 ] || skip "no libcudnn.so.9 (toolkit or simgpu)"

for libdir in "${libdirs[@]}"; do
for program in cudnn_calls cudnn_graph_calls; do
	PROGRAM="$DNNTRACE_BUILD/tests/libs/$program"
	name=$(basename "$(dirname "$libdir")")-$program
	lines=31
	[ "$program" = cudnn_graph_calls ] && lines=1
	LD_LIBRARY_PATH="$libdir" "$PROGRAM" null >"$tmp/$name.plain" 2>"$tmp/$name.plain.err" ||
		fail "$name: cudnn_calls null failed untraced: $(head -n 2 "$tmp/$name.plain.err")"
	[ "$(wc -l <"$tmp/$name.plain")" -ge "$lines" ] || fail "$name: cudnn_calls null printed too little"
	mapfile -t env_args < <(traced_env "$libdir")
	env "${env_args[@]}" "$PROGRAM" null >"$tmp/$name.preloaded" 2>/dev/null ||
		fail "$name: cudnn_calls null failed preloaded"
	diff -u "$tmp/$name.plain" "$tmp/$name.preloaded" >&2 ||
		fail "$name: statuses differ when preloaded"
	record_raw "$tmp/$name.trace" "$tmp/$name.out" "$tmp/$name.err" "$libdir" "$PROGRAM" null ||
		fail "$name: recorded run failed (status $?)"
	diff -u "$tmp/$name.plain" "$tmp/$name.out" >&2 || fail "$name: statuses differ when recorded"
	events "$tmp/$name.trace" >/dev/null
	babeltrace2 --clock-cycles "$tmp/$name.trace" | python3 "$CUDNN_CHECK" null "$tmp/$name.out" ||
		fail "$name: trace check failed"
done
done
exit 0
