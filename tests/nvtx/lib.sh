# shellcheck shell=bash
# lib.sh: what the NVTX injection tests share: a scratch directory removed on
# exit, skip/fail helpers, the preload value for the build under test, and
# record_nvtx, which runs a command under a private LTTng session recording
# dnntrace_* (tests/lib/private_lttng.sh). Must never start a global session
# daemon nor leave one running.
set -u

: "${DNNTRACE_ROOT:?run through tests/run_tests.sh (DNNTRACE_ROOT unset)}"
: "${DNNTRACE_BUILD:?run through tests/run_tests.sh (DNNTRACE_BUILD unset)}"

TRACER="$DNNTRACE_BUILD/lib/libdnntrace.so"
RANGES="$DNNTRACE_BUILD/tests/nvtx/nvtx_ranges"
PRIVATE_LTTNG="$DNNTRACE_ROOT/tests/lib/private_lttng.sh"
CHECK_RANGES="$DNNTRACE_ROOT/tests/nvtx/check_ranges.py"

# Each test sets the injection path itself.
unset NVTX_INJECTION64_PATH

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-nvtx.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

for path in "$TRACER" "$RANGES"; do
	[ -e "$path" ] || fail "missing $path (build with make all)"
done
command -v babeltrace2 >/dev/null || skip "babeltrace2 not installed"
command -v lttng >/dev/null || skip "lttng not installed"

# An ASan build of the tracer needs the ASan runtime first in LD_PRELOAD;
# LTTng-UST keeps per-thread state until exit, so leak checks are off there.
preload="$TRACER"
asan_env=()
if readelf -d "$TRACER" 2>/dev/null | grep -q libasan; then
	preload="$(${CC:-gcc} -print-file-name=libasan.so) $TRACER"
	asan_env=("ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
fi

# record_nvtx TRACE_DIR OUT ERR ENV_ASSIGNMENT... -- CMD...: runs CMD with the
# given environment (plus the ASan settings) under a private session
# recording dnntrace_*; CMD's stdout goes to OUT, stderr to ERR; returns
# CMD's status (90: the session did not start).
record_nvtx() {
	local trace=$1 out=$2 err=$3
	shift 3
	local env_args=("${asan_env[@]}")
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do env_args+=("$1"); shift; done
	shift
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

# run_plain OUT ERR ENV_ASSIGNMENT... -- CMD...: the same without a session.
run_plain() {
	local out=$1 err=$2
	shift 2
	local env_args=("${asan_env[@]}")
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do env_args+=("$1"); shift; done
	shift
	env "${env_args[@]}" "$@" >"$out" 2>"$err"
}

# events TRACE_DIR: the trace as babeltrace2 text, failing on any discarded event.
events() {
	local text
	text=$(babeltrace2 "$1" 2>"$tmp/bt.err") || fail "babeltrace2 cannot read $1: $(head -n 2 "$tmp/bt.err")"
	grep -qi discarded "$tmp/bt.err" && fail "events discarded: $(head -n 2 "$tmp/bt.err")"
	printf '%s\n' "$text"
}
