#!/usr/bin/env bash
# Loss accounting, --lossy: with 4 KiB sub-buffers LTTng cannot keep up with
# 100000 traced calls and discards events. record names the count (LTTng's
# own) and keeps the program's exit status (discarding was the user's
# choice); the summary says exactly how many events the trace lacks (the
# tracer's count minus babeltrace2's), all of them discarded.
. "$DNNTRACE_ROOT/tests/hostile/lib.sh"
DNNTRACE_RECORD_SUBBUF=4096 env "${tracer_env[@]}" "$DNNTRACE" record --lossy --simgpu \
	-o "$TEST_TMP/trace" -- "$FLOOD" 50000 >/dev/null 2>"$TEST_TMP/err" ||
	fail "record --lossy exited $?: $(cat "$TEST_TMP/err")"
discarded=$(status_value "$TEST_TMP/trace" discarded_events)
[ "${discarded:-0}" -gt 0 ] || skip "LTTng kept up with 4 KiB sub-buffers: nothing discarded"
grep -qx "dnntrace: LTTng discarded $discarded events (--lossy: its buffers were full)" "$TEST_TMP/err" ||
	fail "record did not name the discarded events: $(cat "$TEST_TMP/err")"
emitted=$(status_emitted "$TEST_TMP/trace")
seen=$(trace_event_count "$TEST_TMP/trace")
[ $((emitted - seen)) = "$discarded" ] ||
	fail "the tracer handed LTTng $emitted events, the trace holds $seen, LTTng says $discarded discarded"
analyze "$TEST_TMP/trace" -o "$TEST_TMP/report" >"$TEST_TMP/analyze.out" 2>&1 ||
	fail "analyze failed: $(head -n 3 "$TEST_TMP/analyze.out")"
want="incomplete: $discarded events lost ($discarded discarded by LTTng: --lossy and its buffers were full)"
[ "$(loss_line "$TEST_TMP/analyze.out")" = "$want" ] ||
	fail "summary says '$(loss_line "$TEST_TMP/analyze.out")', not '$want'"
exit 0
