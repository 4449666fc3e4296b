#!/usr/bin/env bash
# End-to-end: `dnntrace record` exits with the traced command's status and
# always destroys its LTTng session: when the command fails, and when the
# user interrupts it (SIGINT forwarded to the command, exit 128+2). The trace
# written up to the interruption is readable.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
require_built "$DNNTRACE_BUILD/lib/libdnntrace.so"

# Inside one private session daemon: run the scenario, then report what
# `lttng list` still shows.
inside_private() {
	"$PRIVATE_LTTNG" env "${tracer_env[@]}" bash -c "$1"'
		leftover=$(lttng list 2>/dev/null | grep -c "dnntrace-")
		echo "leftover sessions: $leftover" >&2
		exit $status' "$DNNTRACE" "$e2e_tmp"
}

# 1. A failing command: its status comes back, no session is left.
inside_private '"$0" record -o "$1/failing" -- sh -c "exit 7" 2>"$1/failing.err"; status=$?' \
	2>"$e2e_tmp/failing.log"
status=$?
[ "$status" = 7 ] || fail "record of a command exiting 7 exited $status: $(cat "$e2e_tmp/failing.err")"
grep -q "leftover sessions: 0" "$e2e_tmp/failing.log" || fail "session left after a failing command: $(cat "$e2e_tmp/failing.log")"
grep -q "trace written to" "$e2e_tmp/failing.err" || fail "record did not say where the trace is"

# 2. A command that cannot be run at all: 127, as a shell would say.
inside_private '"$0" record -o "$1/missing" -- /nonexistent/program 2>"$1/missing.err"; status=$?' \
	2>"$e2e_tmp/missing.log"
status=$?
[ "$status" = 127 ] || fail "record of a nonexistent program exited $status, expected 127"
grep -q "leftover sessions: 0" "$e2e_tmp/missing.log" || fail "session left after a nonexistent program"

# 3. SIGINT while the command runs: forwarded to it, session destroyed,
#    exit 130. The command traps SIGINT and writes a mark, so we know it got it.
inside_private '
	env --default-signal=INT "$0" record -o "$1/interrupted" -- \
		bash -c "trap \"echo got-sigint > $1/mark; exit 0\" INT; echo started > $1/started; while :; do sleep 0.1; done" \
		2>"$1/interrupted.err" &
	pid=$!
	for _ in $(seq 100); do [ -e "$1/started" ] && break; sleep 0.1; done
	kill -INT $pid
	wait $pid; status=$?' 2>"$e2e_tmp/interrupted.log"
status=$?
[ -e "$e2e_tmp/started" ] || fail "traced command never started: $(cat "$e2e_tmp/interrupted.err")"
[ "$status" = 130 ] || fail "interrupted record exited $status, expected 130"
[ "$(cat "$e2e_tmp/mark" 2>/dev/null)" = got-sigint ] || fail "SIGINT was not forwarded to the command"
grep -q "leftover sessions: 0" "$e2e_tmp/interrupted.log" || fail "session left after SIGINT: $(cat "$e2e_tmp/interrupted.log")"
babeltrace2 "$e2e_tmp/interrupted" >/dev/null 2>&1 || fail "trace of the interrupted run is unreadable"
exit 0
