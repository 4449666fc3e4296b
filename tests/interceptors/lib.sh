# shellcheck shell=bash
# lib.sh: what the interceptor tests share: a scratch directory removed on
# exit, skip/fail helpers, the LD_PRELOAD value for the build under test, and
# record_raw, which traces a command with plain lttng commands (not through
# scripts/dnntrace, so these tests check the library alone) inside
# tests/lib/private_lttng.sh. Must never start a global session daemon.
set -u

: "${DNNTRACE_ROOT:?run through tests/run_tests.sh (DNNTRACE_ROOT unset)}"
: "${DNNTRACE_BUILD:?run through tests/run_tests.sh (DNNTRACE_BUILD unset)}"

TRACER="$DNNTRACE_BUILD/lib/libdnntrace.so"
HELPERS="$DNNTRACE_BUILD/tests/interceptors"
PRIVATE_LTTNG="$DNNTRACE_ROOT/tests/lib/private_lttng.sh"
REAL_CUDART_DIR="${CUDA_HOME:-/usr/local/cuda}/lib64"
SIMGPU_LIB="$DNNTRACE_BUILD/simgpu/lib"
CHECK_EVENTS="$DNNTRACE_ROOT/tests/interceptors/check_events.py"
export SIMGPU_TIME_SCALE=0

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-interceptors.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

require() {
	local path
	for path in "$@"; do
		[ -e "$path" ] || fail "missing $path (build with make all)"
	done
}

# An ASan build of the tracer needs the ASan runtime first in LD_PRELOAD;
# LTTng-UST keeps per-thread state until exit, so leak checks are off there.
preload="$TRACER"
asan_env=()
if readelf -d "$TRACER" 2>/dev/null | grep -q libasan; then
	preload="$(${CC:-gcc} -print-file-name=libasan.so) $TRACER"
	asan_env=("ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
fi

# traced_env LIBDIR: env arguments running a program preloaded, on LIBDIR's cudart.
traced_env() {
	echo "LD_PRELOAD=$preload"
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
	"$PRIVATE_LTTNG" bash -c '
		trace=$1 out=$2 err=$3; shift 3
		lttng create s -o "$trace" >/dev/null &&
		lttng enable-channel -u --blocking-timeout=inf c >/dev/null &&
		lttng enable-event -u -c c "dnntrace_*" >/dev/null &&
		lttng add-context -u -c c -t vpid -t vtid -t procname >/dev/null &&
		lttng start >/dev/null || exit 90
		env LTTNG_UST_ALLOW_BLOCKING=1 "$@" >"$out" 2>"$err"; rc=$?
		lttng destroy >/dev/null
		exit $rc' _ "$trace" "$out" "$err" env "${env_args[@]}" "$@"
}

# events TRACE_DIR: the trace as babeltrace2 text, failing on any discarded event.
events() {
	local text
	text=$(babeltrace2 "$1" 2>"$tmp/bt.err") || fail "babeltrace2 cannot read $1: $(head -n 2 "$tmp/bt.err")"
	grep -qi discarded "$tmp/bt.err" && fail "events discarded: $(head -n 2 "$tmp/bt.err")"
	printf '%s\n' "$text"
}

# same_results A B: two runs' `name result errno [ptr]` lines agree on name,
# result and errno (host pointers differ between runs: address randomisation,
# which is also why `kernel_handle HANDLE STUB` lines are left out).
same_results() {
	diff -u <(grep -v '^kernel_handle ' "$1" | cut -d' ' -f1-3) \
		<(grep -v '^kernel_handle ' "$2" | cut -d' ' -f1-3) >&2
}
