#!/usr/bin/env bash
# start_tracing.sh / stop_tracing.sh: a manual session is created, refuses a
# second start, records a traced program, and is destroyed by stop, which
# leaves no session and no state behind.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
[ -f "$DNNTRACE_BUILD/lib/libdnntrace.so" ] || fail "missing libdnntrace.so (build with make all)"
export DNNTRACE_STATE_DIR="$scratch/state"
mkdir -p "$DNNTRACE_STATE_DIR"

"$PRIVATE_LTTNG" bash -c '
	scripts=$0 trace=$1 log=$2
	"$scripts/start_tracing.sh" -o "$trace" 2>>"$log" || { echo "start failed" >&2; exit 1; }
	lttng list 2>/dev/null | grep -q "dnntrace-" || { echo "no session after start" >&2; exit 1; }
	"$scripts/start_tracing.sh" -o "$trace.2" 2>>"$log" && { echo "second start accepted" >&2; exit 1; }
	( set --; . "$scripts/set_env.sh" && [ -n "$LD_PRELOAD" ] ) || { echo "set_env failed" >&2; exit 1; }
	"$scripts/stop_tracing.sh" 2>>"$log" || { echo "stop failed" >&2; exit 1; }
	lttng list 2>/dev/null | grep -q "dnntrace-" && { echo "session left after stop" >&2; exit 1; }
	"$scripts/stop_tracing.sh" 2>>"$log" && { echo "second stop succeeded" >&2; exit 1; }
	exit 0' "$SCRIPTS" "$scratch/trace" "$scratch/log" 2>>"$scratch/log" || fail "manual session: $(tail -n 1 "$scratch/log")"
[ -z "$(ls -A "$DNNTRACE_STATE_DIR")" ] || fail "state left in $DNNTRACE_STATE_DIR"
[ -d "$scratch/trace" ] || fail "no trace directory"
grep -q "trace written to $scratch/trace" "$scratch/log" || fail "stop did not say where the trace is"
exit 0
