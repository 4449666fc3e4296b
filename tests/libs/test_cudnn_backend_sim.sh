#!/usr/bin/env bash
# cudnnBackendExecute recorded on the simulated GPU, graphs built the way
# cudnn-frontend builds them: every variant-pack pointer is listed as
# "uid<N>:<attribute>" with the role its graph gives it (conv+bias+relu with
# virtual intermediates and a plan from heuristics results; matmul output
# read by a pointwise op: READ_WRITE; conv backward data with beta != 0;
# an operation the tracer does not model: unknown roles, shapes kept; a uid
# in no graph), its shape and tensor id, the workspace, params, and the
# kernels the simulated library launches linked to the call; a failed
# execute is traced with its status. Statuses match the untraced run.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
PROGRAM="$DNNTRACE_BUILD/tests/libs/cudnn_graph_calls"
CHECK="$DNNTRACE_ROOT/tests/libs/cudnn_check.py"
[ -e "$SIMGPU_LIB/libcudnn.so.9" ] || skip "simulated libcudnn not built ($SIMGPU_LIB)"
require "$TRACER" "$PROGRAM"

statuses() { sed -n 's/^EXPECT {"api": "\([^"]*\)", "result": \([0-9]*\),.*/\1 \2/p' "$1"; }

LD_LIBRARY_PATH="$SIMGPU_LIB" "$PROGRAM" backend >"$tmp/plain" 2>"$tmp/plain.err" ||
	fail "cudnn_graph_calls backend failed untraced: $(head -n 2 "$tmp/plain.err")"
record_raw "$tmp/trace" "$tmp/out" "$tmp/err" "$SIMGPU_LIB" "$PROGRAM" backend ||
	fail "recorded run failed (status $?): $(head -n 2 "$tmp/err")"
[ "$(statuses "$tmp/plain" | wc -l)" -ge 5 ] || fail "too few executes in the untraced run"
diff -u <(statuses "$tmp/plain") <(statuses "$tmp/out") >&2 || fail "statuses differ when traced"
events "$tmp/trace" >/dev/null
babeltrace2 --clock-cycles "$tmp/trace" | python3 "$CHECK" expect "$tmp/out" 1 ||
	fail "trace check failed"
exit 0
