#!/usr/bin/env bash
# Manual sessions started at the same moment share one session daemon
# without a race: with no daemon running, two start_tracing.sh launched
# together both succeed, 10 runs of 10, and exactly one daemon serves both
# (one was started, and noted); stopping one leaves the other's session and
# the daemon alone, and that session still records (a traced program run
# after the first stop is in its trace); the last stop stops the daemon.
# Each run has its own daemon home (a private /var/run/lttng as root, a
# private LTTNG_HOME otherwise), so no daemon runs when the starts race.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
require_command lttng lttng-sessiond babeltrace2 flock
require_built "$TRACER" "$DNNTRACE_BUILD/workloads/device_reset" "$SIMGPU_LIB/libcudart.so.13"

# run_once N: one race, in its own daemon home; prints what went wrong.
run_once() {
	local n=$1 dir="$scratch/run$1"
	mkdir -p "$dir/a" "$dir/b" "$dir/home"
	local inner='
		set -u
		scripts=$0 dir=$1 n=$2
		export LTTNG_HOME="$dir/home"
		lttng list >/dev/null 2>&1 && { echo "a daemon already runs"; exit 1; }
		DNNTRACE_STATE_DIR="$dir/a" "$scripts/start_tracing.sh" -o "$dir/trace-a" 2>"$dir/a.err" &
		a=$!
		DNNTRACE_STATE_DIR="$dir/b" "$scripts/start_tracing.sh" -o "$dir/trace-b" 2>"$dir/b.err" &
		b=$!
		wait $a; ra=$?
		wait $b; rb=$?
		[ $ra = 0 ] && [ $rb = 0 ] || { echo "starts: $ra $rb: $(cat "$dir/a.err" "$dir/b.err" | grep -v "now run" | head -n 2)"; exit 1; }
		if [ "$n" = 1 ]; then
			sessions=$(lttng list 2>/dev/null | grep -c "^ *[0-9][0-9]*) dnntrace-")
			[ "$sessions" = 2 ] || { echo "$sessions sessions after both starts"; exit 1; }
		fi
		pidfile=$(. "$scripts/lib/dnntrace-session.sh"; dnntrace_sessiond_pidfile)
		owner="$(dirname "$pidfile")/.dnntrace-manual-daemon"
		[ -s "$owner" ] || { echo "no daemon noted as started"; exit 1; }
		daemon=$(cat "$owner")
		[ "$daemon" = "$(cat "$pidfile")" ] || { echo "noted daemon $daemon is not the running one"; exit 1; }
		DNNTRACE_STATE_DIR="$dir/a" "$scripts/stop_tracing.sh" 2>>"$dir/a.err" || { echo "stop a failed"; exit 1; }
		kill -0 "$daemon" 2>/dev/null || { echo "the first stop stopped the daemon b records with"; exit 1; }
		if [ "$n" = 1 ]; then
			lttng list 2>/dev/null | grep -q "^ *[0-9][0-9]*) dnntrace-" || { echo "b lost its session"; exit 1; }
			( export DNNTRACE_STATE_DIR="$dir/b"; set --; . "$scripts/set_env.sh" --simgpu >/dev/null 2>&1 &&
			  "$DNNTRACE_BUILD/workloads/device_reset" >/dev/null ) || { echo "traced program failed"; exit 1; }
		fi
		DNNTRACE_STATE_DIR="$dir/b" "$scripts/stop_tracing.sh" 2>>"$dir/b.err" || { echo "stop b failed"; exit 1; }
		for _ in $(seq 50); do kill -0 "$daemon" 2>/dev/null || break; sleep 0.1; done
		if kill -0 "$daemon" 2>/dev/null; then kill "$daemon"; echo "the last stop left the daemon"; exit 1; fi
		[ ! -e "$owner" ] || { echo "the daemon note is left"; exit 1; }
		exit 0'
	if [ "$(id -u)" = 0 ]; then
		mkdir -p /var/run/lttng
		unshare --mount --propagation private bash -c \
			'mount -t tmpfs tmpfs /var/run/lttng && exec bash -c "$0" "$@"' \
			"$inner" "$SCRIPTS" "$dir" "$n"
	else
		bash -c "$inner" "$SCRIPTS" "$dir" "$n"
	fi
}

export DNNTRACE_BUILD
# Two runs at a time (each in its own daemon home): 10 one after the other
# took 89 s at load 12, too near the runner's 120 s; the session counts and
# the traced program are checked in the first run only.
for n in $(seq 10); do
	( if why=$(run_once "$n" 2>&1); then touch "$scratch/ok$n"; else echo "run $n: $why" >&2; fi ) &
	[ $((n % 2)) = 0 ] && wait
done
wait
ok=$(find "$scratch" -maxdepth 1 -name 'ok*' | wc -l)
[ "$ok" = 10 ] || fail "$ok of 10 concurrent manual starts worked"
# The session that outlived the other's stop recorded the program run then.
allocs=$(babeltrace2 "$scratch/run1/trace-b" 2>/dev/null | grep -c 'dnntrace_api:alloc:')
[ "$allocs" = 6 ] || fail "the surviving session's trace holds $allocs allocations, want device_reset's 6"
exit 0
