#!/usr/bin/env bash
# Isolation: two `dnntrace record`s started at the same moment, each of its
# own program, with a third traced program running outside any recording
# (the tracer preloaded, as a test suite or a manual session has it): both
# recordings start (no daemon is shared, so none races to start one), exit 0,
# and each trace holds exactly its own program's process. Several rounds.
. "$DNNTRACE_ROOT/tests/hostile/lib.sh"
rounds=${HOSTILE_ROUNDS:-2}

for round in $(seq "$rounds"); do
	dir="$TEST_TMP/round$round"
	mkdir -p "$dir"
	# The outsider: traced (LD_PRELOAD) but in no recording, running
	# across both recordings.
	# (a sanitizer build's runtime first, as dnntrace record puts it)
	env "${tracer_env[@]}" LD_PRELOAD="${asan_runtime:+$asan_runtime }$DNNTRACE_BUILD/lib/libdnntrace.so" \
		LD_LIBRARY_PATH="$SIMGPU_LIB" "$FLOOD" 3000 >"$dir/outsider.out" 2>&1 &
	outsider=$!
	for side in a b; do
		pairs=200
		[ "$side" = b ] && pairs=300
		hostile_record "$dir/$side" sh -c 'echo $$ >"$0"; exec "$1" "$2"' \
			"$dir/$side.pid" "$FLOOD" "$pairs" >"$dir/$side.out" 2>"$dir/$side.err" &
		echo $! >"$dir/$side.record"
	done
	for side in a b; do
		wait "$(cat "$dir/$side.record")" ||
			fail "round $round: record $side exited $?: $(head -n 3 "$dir/$side.err")"
	done
	wait "$outsider" || fail "round $round: the outsider failed: $(cat "$dir/outsider.out")"
	for side in a b; do
		want=$(cat "$dir/$side.pid")
		got=$(trace_vpids "$dir/$side")
		[ "$got" = "$want" ] ||
			fail "round $round: trace $side holds processes $got, not only its own $want"
		grep -q '^incomplete' "$dir/$side.err" && fail "round $round: $side: $(cat "$dir/$side.err")"
	done
	# Each trace has its own program's allocations: 200 and 300.
	[ "$(babeltrace2 "$dir/a" 2>/dev/null | grep -c 'dnntrace_api:alloc:')" = 200 ] ||
		fail "round $round: trace a does not hold its 200 allocations"
	[ "$(babeltrace2 "$dir/b" 2>/dev/null | grep -c 'dnntrace_api:alloc:')" = 300 ] ||
		fail "round $round: trace b does not hold its 300 allocations"
done
exit 0
