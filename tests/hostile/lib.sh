# shellcheck shell=bash
# lib.sh: what the hostile-but-intact tests (tests/hostile/test_*.sh) share:
# recordings the way a user makes them (dnntrace record directly: each
# recording has its own session daemon, so no private_lttng.sh around it),
# the vpids a trace holds, and the summary's loss line. Sourced; must never
# start a global lttng-sessiond nor kill a process it did not start.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"

FLOOD="$WORKLOADS/event_flood"
require_built "$FLOOD" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"
command -v lttng-sessiond >/dev/null || skip "no lttng-sessiond"
command -v babeltrace2 >/dev/null || skip "no babeltrace2"
# A stuck LTTng teardown (a process killed inside an event) must not hold a
# test for 60 s.
export DNNTRACE_TEARDOWN_TIMEOUT=10

# hostile_record TRACE_DIR CMD...: dnntrace record --simgpu, as a user runs it.
hostile_record() {
	local trace=$1
	shift
	env "${tracer_env[@]}" "$DNNTRACE" record --simgpu -o "$trace" -- "$@"
}

# trace_vpids TRACE_DIR: the process ids the trace's events carry, sorted,
# comma-separated (babeltrace2's own reading, not the analyzer's).
trace_vpids() {
	babeltrace2 "$1" 2>/dev/null | grep -o 'vpid = [0-9]*' | awk '{print $3}' |
		sort -un | paste -sd, -
}

# trace_event_count TRACE_DIR: how many events babeltrace2 reads in it.
trace_event_count() {
	babeltrace2 "$1" 2>/dev/null | wc -l
}

# status_value TRACE_DIR KEY: the value of KEY in the trace's dnntrace-status.
status_value() {
	awk -v key="$2" '$1 == key { sub(/^[^ ]* /, ""); print; exit }' "$1/dnntrace-status"
}

# status_emitted TRACE_DIR: events the tracer handed to LTTng, all processes.
status_emitted() {
	awk '$1 == "process" { n += $3 } END { print n + 0 }' "$1/dnntrace-status"
}

# loss_line REPORT_OUTPUT: the summary's `incomplete: ...` line (first one).
loss_line() {
	grep -m1 '^incomplete: ' "$1"
}
