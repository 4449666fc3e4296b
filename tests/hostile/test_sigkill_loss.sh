#!/usr/bin/env bash
# Loss accounting, SIGKILL while the program traces as fast as it can:
# record exits 137; when the kill landed inside an event (LTTng then never
# completes that buffer: record's teardown times out) or between the tracer's
# count and its event, the summary gives exactly how many events the trace
# lacks (the tracer's count minus babeltrace2's) and why; when nothing was
# lost, it says nothing. Which case a kill hits is chance: both are checked,
# over HOSTILE_KILLS kills (default 1: one stuck teardown costs 30 s) at
# different moments; the 20-run figure in docs/recording-integrity.md is
# this loop by hand.
. "$DNNTRACE_ROOT/tests/hostile/lib.sh"
kills=${HOSTILE_KILLS:-1}   # each may cost 30 s (a stuck teardown, then its daemon)
# A stuck teardown costs this long each time.
export DNNTRACE_TEARDOWN_TIMEOUT=5
for run in $(seq "$kills"); do
	dir="$TEST_TMP/run$run"
	mkdir -p "$dir"
	hostile_record "$dir/trace" sh -c 'echo $$ >"$0"; exec "$1" 400000' "$dir/pid" "$FLOOD" \
		>/dev/null 2>"$dir/err" &
	recorder=$!
	for _ in $(seq 3000); do [ -s "$dir/pid" ] && break; sleep 0.01; done
	[ -s "$dir/pid" ] || fail "run $run: the program never started: $(cat "$dir/err")"
	# Kill once it has handed LTTng run x 10000 events (the tracer's
	# counter file, in the recording's private directory).
	pid=$(cat "$dir/pid")
	for _ in $(seq 3000); do
		for counts in "${TMPDIR:-/tmp}"/dnntrace-record.*/counts/"$pid"; do
			emitted=$(od -An -t u8 -N 8 "$counts" 2>/dev/null | tr -d ' ')
			[ "${emitted:-0}" -gt $((run * 10000)) ] && break 2
		done
		sleep 0.01
	done
	kill -KILL "$pid"
	wait "$recorder"
	status=$?
	[ "$status" = 137 ] || fail "run $run: record exited $status, not 137: $(cat "$dir/err")"
	analyze "$dir/trace" -o "$dir/report" >"$dir/analyze.out" 2>&1 ||
		fail "run $run: analyze failed: $(head -n 3 "$dir/analyze.out")"
	emitted=$(status_emitted "$dir/trace")
	seen=$(trace_event_count "$dir/trace")
	line=$(loss_line "$dir/analyze.out")
	if [ "$emitted" = "$seen" ]; then
		[ -z "$line" ] || fail "run $run: nothing was lost, yet the summary says: $line"
	elif [ "$(status_value "$dir/trace" teardown)" = timed-out ]; then
		want="incomplete: $((emitted - seen)) events lost ($((emitted - seen)) never written: a traced process was killed while writing an event and LTTng never completed its buffers)"
		[ "$line" = "$want" ] || fail "run $run: summary says '$line', not '$want'"
	else
		want="incomplete: $((emitted - seen)) events lost ($((emitted - seen)) never written: the traced command was killed by signal 9 before they were written)"
		[ "$line" = "$want" ] || fail "run $run: summary says '$line', not '$want'"
	fi
	echo "run $run: $emitted events handed to LTTng, $seen in the trace, teardown $(status_value "$dir/trace" teardown)"
done
exit 0
