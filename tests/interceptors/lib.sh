# shellcheck shell=bash
# lib.sh: what the interceptor tests (and tests/libs/) add to
# tests/lib/common.sh: where their helper programs and the real CUDA runtime
# are, the environment of a preloaded run, and record_raw, which traces a
# command with the tracer library alone (not through scripts/dnntrace, so
# these tests check the library by itself). Must never start a global session
# daemon.
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

HELPERS="$DNNTRACE_BUILD/tests/interceptors"
REAL_CUDART_DIR="${CUDA_HOME:-/usr/local/cuda}/lib64"
CHECK_EVENTS="$DNNTRACE_ROOT/tests/interceptors/check_events.py"
export SIMGPU_TIME_SCALE=0
# The name these tests knew the scratch directory by.
tmp=$TEST_TMP


# traced_env LIBDIR: env arguments running a program preloaded, on LIBDIR's cudart.
traced_env() {
	echo "LD_PRELOAD=$tracer_preload"
	echo "LD_LIBRARY_PATH=$1"
	local extra
	for extra in "${asan_env[@]}"; do echo "$extra"; done
}

# record_raw TRACE_DIR OUT ERR LIBDIR CMD...: runs CMD preloaded on LIBDIR's
# runtime under a private session recording dnntrace_*; CMD's stdout goes to
# OUT, stderr to ERR; returns CMD's status (90: the session did not start).
record_raw() {
	local trace=$1 out=$2 err=$3 libdir=$4
	shift 4
	local env_args
	mapfile -t env_args < <(traced_env "$libdir")
	record_session "$trace" "$out" "$err" env "${env_args[@]}" "$@"
}

# same_results A B: two runs' `name result errno [ptr]` lines agree on name,
# result and errno (host pointers differ between runs: address randomisation,
# which is also why `kernel_handle HANDLE STUB` lines are left out).
same_results() {
	diff -u <(grep -v '^kernel_handle ' "$1" | cut -d' ' -f1-3) \
		<(grep -v '^kernel_handle ' "$2" | cut -d' ' -f1-3) >&2
}
