# shellcheck shell=bash
# lib.sh: what the cuDNN/cuBLAS wrapper tests (tests/libs/test_*.sh) add to
# tests/interceptors/lib.sh (which they trace with, through record_raw): the
# cuDNN checker, the statuses of a cuDNN test program's run, and the whole
# check of a cuDNN program on the simulated library. Must never start a
# global session daemon.
# shellcheck source-path=SCRIPTDIR source=../interceptors/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../interceptors/lib.sh"

CUDNN_CHECK="$DNNTRACE_ROOT/tests/libs/cudnn_check.py"

# statuses FILE: the `api status` of each call a cuDNN test program expects.
# Statuses and pointers do not depend on the tracer; host addresses do
# (randomisation), so only statuses are compared between runs.
statuses() { sed -n 's/^EXPECT {"api": "\([^"]*\)", "result": \([0-9]*\),.*/\1 \2/p' "$1"; }

# check_cudnn_on_simgpu PROGRAM MODE MIN_CALLS: PROGRAM MODE on the simulated
# libcudnn, untraced and recorded: the same statuses (at least MIN_CALLS
# calls), nothing lost, and every call's event as the program expects, each
# with one kernel linked to it (the simulated library's contract,
# simgpu/cudnn/README.md). Skips when the simulated libcudnn is not built.
check_cudnn_on_simgpu() {
	local program=$1 mode=$2 min_calls=$3 name
	name=$(basename "$program")
	[ -e "$SIMGPU_LIB/libcudnn.so.9" ] || skip "simulated libcudnn not built ($SIMGPU_LIB)"
	require_built "$TRACER" "$program"
	LD_LIBRARY_PATH="$SIMGPU_LIB" "$program" "$mode" >"$tmp/plain" 2>"$tmp/plain.err" ||
		fail "$name $mode failed untraced: $(head -n 2 "$tmp/plain.err")"
	record_raw "$tmp/trace" "$tmp/out" "$tmp/err" "$SIMGPU_LIB" "$program" "$mode" ||
		fail "recorded run failed (status $?): $(head -n 2 "$tmp/err")"
	[ "$(statuses "$tmp/plain" | wc -l)" -ge "$min_calls" ] || fail "too few calls in the untraced run"
	diff -u <(statuses "$tmp/plain") <(statuses "$tmp/out") >&2 || fail "statuses differ when traced"
	events "$tmp/trace" >/dev/null
	babeltrace2 --clock-cycles "$tmp/trace" | python3 "$CUDNN_CHECK" expect "$tmp/out" 1 ||
		fail "trace check failed"
}
