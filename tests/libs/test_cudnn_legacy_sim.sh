#!/usr/bin/env bash
# Every wrapped cuDNN legacy call recorded on the simulated GPU: each call's
# event matches what the program passed (argument names, pointers, roles -
# READ_WRITE when beta != 0, z only when alpha2 != 0, ... - types, shapes
# from tensor and filter descriptors, set, reset, destroyed and re-created,
# or derived; tensor ids, a pointer inside an allocation included; params;
# handle and stream; status, failures included); the one kernel the
# simulated library launches per call is linked to the call's call_id, and
# is not traced again as a launch of the program; results are the same
# untraced and traced.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
PROGRAM="$DNNTRACE_BUILD/tests/libs/cudnn_calls"
CHECK="$DNNTRACE_ROOT/tests/libs/cudnn_check.py"
[ -e "$SIMGPU_LIB/libcudnn.so.9" ] || skip "simulated libcudnn not built ($SIMGPU_LIB)"
require "$TRACER" "$PROGRAM"

# Statuses and pointers do not depend on the tracer; host addresses do
# (randomisation), so compare statuses only.
statuses() { sed -n 's/^EXPECT {"api": "\([^"]*\)", "result": \([0-9]*\),.*/\1 \2/p' "$1"; }

LD_LIBRARY_PATH="$SIMGPU_LIB" "$PROGRAM" legacy >"$tmp/plain" 2>"$tmp/plain.err" ||
	fail "cudnn_calls legacy failed untraced: $(head -n 2 "$tmp/plain.err")"
record_raw "$tmp/trace" "$tmp/out" "$tmp/err" "$SIMGPU_LIB" "$PROGRAM" legacy ||
	fail "recorded run failed (status $?): $(head -n 2 "$tmp/err")"
[ "$(statuses "$tmp/plain" | wc -l)" -ge 25 ] || fail "too few calls in the untraced run"
diff -u <(statuses "$tmp/plain") <(statuses "$tmp/out") >&2 || fail "statuses differ when traced"
events "$tmp/trace" >/dev/null
# One kernel per legacy call: the simulated library's contract (simgpu/cudnn/README.md).
babeltrace2 --clock-cycles "$tmp/trace" | python3 "$CHECK" expect "$tmp/out" 1 ||
	fail "trace check failed"
exit 0
