#!/usr/bin/env bash
# The report does not depend on how many decoders read the trace (so not on
# the machine's CPU count): one thread's events in several per-CPU stream
# files (the emitter's hop mode moves it to the next CPU every 512 kernels,
# in 8 KiB packets) analysed with one decoder and with one per stream file
# give byte-identical report files. Before, each decoder sent the thread's
# name with its first record of it, and the timeline named the process
# twice with several decoders (found by the fuzz smoke test, whose damaged
# cases decode with one).
set -u
. "$DNNTRACE_ROOT/tests/lib/common.sh"
require_command lttng lttng-sessiond babeltrace2
[ "$(nproc)" -ge 2 ] || skip "one CPU: every event lands in one stream file"
emit="$DNNTRACE_BUILD/tests/analysis_emit_scripted"
[ -x "$emit" ] || fail "build first ($emit)"
trace="$TEST_TMP/trace"
record_scripted --subbuf 8K "$trace" /dev/null - env ASAN_OPTIONS="$no_leak_asan_options" \
	"$emit" hop 9000 >/dev/null 2>"$TEST_TMP/record.err" ||
	fail "recording failed: $(tail -n 2 "$TEST_TMP/record.err")"
# ground truth of the set-up: the one thread's events are in two files or more
launches=$(babeltrace2 "$trace" 2>/dev/null | grep -c 'dnntrace_api:launch:')
[ "$launches" = 3000 ] || fail "the emitter's launches: $launches, want 3000"
streams=$(find "$trace" -name 'dnntrace_[0-9]*' -type f -size +4k | wc -l)
[ "$streams" -ge 2 ] || fail "the thread's events lie in $streams stream file(s): the hops did not happen"
for n in 1 8; do
	DNNTRACE_DECODERS=$n "$DNNTRACE_BUILD/bin/dnntrace-analyze" "$trace" -o "$TEST_TMP/r$n" \
		--timeline both >"$TEST_TMP/s$n" 2>"$TEST_TMP/e$n" ||
		fail "analyze with $n decoder(s) exited $?: $(tail -n 1 "$TEST_TMP/e$n")"
done
diff -r "$TEST_TMP/r1" "$TEST_TMP/r8" >"$TEST_TMP/diff" 2>&1 ||
	fail "1 and 8 decoders differ: $(head -n 3 "$TEST_TMP/diff")"
# the program's process named once (GPU tracks are named apart)
names=$(grep -o '"name":"process_name","args":{"name":"analysis_emit_s"}' "$TEST_TMP/r8/timeline.json" | wc -l)
[ "$names" = 1 ] || fail "the process is named $names times in timeline.json, want 1"
exit 0
