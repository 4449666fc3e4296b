# Sourced by the analysis script tests: records commands into an LTTng trace
# through tests/lib/private_lttng.sh (never a global session daemon).
#   record TRACE_DIR CMD [ARGS...]   (CMD may be run several times via sh -c)
#   RECORD_SUBBUF=8K record ...: small sub-buffers, so the trace has many
#   packets (default: LTTng's size, one packet for a small test)
# Skips the test (77) when LTTng is not installed.
command -v lttng >/dev/null && command -v lttng-sessiond >/dev/null || {
	echo "LTTng tools not installed"; exit 77; }
: "${DNNTRACE_ROOT:?}" "${DNNTRACE_BUILD:?}"
# The recorded program may be an ASan build: LTTng-UST keeps per-thread
# state until exit by design, so leak reports there are noise.
record_asan_options="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# A timed scenario of emit_scripted exits 75 when a loaded machine
# descheduled it past one of its windows: that recording is thrown away and
# made again (up to 30 times), so the comparison only ever sees the scenario.
record() {
	local trace=$1 attempt rc; shift
	for attempt in $(seq 30); do
		rm -rf "$trace"
		record_once "$trace" "$@"; rc=$?
		[ "$rc" = 75 ] || return "$rc"
		echo "record: attempt $attempt descheduled, recording again" >&2
	done
	return "$rc"
}

record_once() {
	local trace=$1; shift
	"$DNNTRACE_ROOT/tests/lib/private_lttng.sh" bash -c '
		trace=$1; shift
		lttng create s -o "$trace" >/dev/null &&
		lttng enable-channel -u --blocking-timeout=inf \
			${RECORD_SUBBUF:+--subbuf-size=$RECORD_SUBBUF} c >/dev/null &&
		lttng enable-event -u -c c "dnntrace_*" >/dev/null &&
		lttng add-context -u -c c -t vpid -t vtid -t procname >/dev/null &&
		lttng start >/dev/null || exit 1
		LTTNG_UST_ALLOW_BLOCKING=1 ASAN_OPTIONS=$2 bash -c "$1"; rc=$?
		lttng destroy >/dev/null; exit $rc' record "$trace" "$*" \
		"$record_asan_options"
}

fail() { echo "FAIL: $*"; exit 1; }
