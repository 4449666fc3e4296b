# shellcheck shell=bash
# lib.sh: what the NVTX injection tests add to tests/lib/common.sh: their
# helper program and checker, and record_nvtx / run_plain, which run a
# command with given environment assignments under a private LTTng session
# (the product's recipe) or without one. Must never start a global session
# daemon nor leave one running.
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

RANGES="$DNNTRACE_BUILD/tests/nvtx/nvtx_ranges"
CHECK_RANGES="$DNNTRACE_ROOT/tests/nvtx/check_ranges.py"
# The name these tests knew the scratch directory by.
tmp=$TEST_TMP

# Each test sets the injection path itself.
unset NVTX_INJECTION64_PATH

require_built "$TRACER" "$RANGES"
require_command babeltrace2 lttng

# env_then_command ENV_ASSIGNMENT... -- CMD...: sets env_args to the ASan
# settings plus the assignments, and command_args to CMD.
env_then_command() {
	env_args=("${asan_env[@]}")
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do env_args+=("$1"); shift; done
	shift
	command_args=("$@")
}

# record_nvtx TRACE_DIR OUT ERR ENV_ASSIGNMENT... -- CMD...: runs CMD with the
# given environment (plus the ASan settings) under a private session
# recording dnntrace_*; CMD's stdout goes to OUT, stderr to ERR; returns
# CMD's status (90: the session did not start).
record_nvtx() {
	local trace=$1 out=$2 err=$3 env_args command_args
	shift 3
	env_then_command "$@"
	record_session "$trace" "$out" "$err" env "${env_args[@]}" "${command_args[@]}"
}

# run_plain OUT ERR ENV_ASSIGNMENT... -- CMD...: the same without a session.
run_plain() {
	local out=$1 err=$2 env_args command_args
	shift 2
	env_then_command "$@"
	env "${env_args[@]}" "${command_args[@]}" >"$out" 2>"$err"
}
