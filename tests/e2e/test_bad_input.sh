#!/usr/bin/env bash
# End-to-end: bad input to the analyzer and to the scripts gives one line on
# stderr and a non-zero exit, never a crash, a traceback or a usage page.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
require_built "$DNNTRACE_BUILD/bin/dnntrace-analyze" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$WORKLOADS/failed_alloc"
analyzer="$DNNTRACE_BUILD/bin/dnntrace-analyze"

# expect_one_line_error NAME CMD...: CMD must exit non-zero (not by a signal)
# with exactly one line on stderr. Every case runs; failures are listed at the end.
failures=0
expect_one_line_error() {
	local name=$1
	shift
	"$@" >"$e2e_tmp/out" 2>"$e2e_tmp/err"
	local status=$? lines
	lines=$(grep -c . "$e2e_tmp/err")
	if [ "$status" = 0 ]; then
		echo "$name: exited 0" >&2
	elif [ "$status" -ge 128 ]; then
		echo "$name: killed by signal $((status - 128))" >&2
	elif [ "$lines" != 1 ]; then
		echo "$name: $lines lines on stderr: $(head -c 200 "$e2e_tmp/err" | tr '\n' '|')" >&2
	else
		return 0
	fi
	failures=$((failures + 1))
}

# A real (small) trace with dnntrace events, for the analyzer cases that
# need one: the refusals below must not be "no dnntrace events" in disguise.
SIMGPU_MEM_BYTES=$((64 << 20)) record "$e2e_tmp/trace" "$WORKLOADS/failed_alloc" "$e2e_tmp/truth" \
	>/dev/null 2>"$e2e_tmp/record.err" ||
	fail "record of failed_alloc failed: $(tail -n 1 "$e2e_tmp/record.err")"
"$analyzer" "$e2e_tmp/trace" -o "$e2e_tmp/report" >/dev/null 2>&1 ||
	fail "the trace for the bad-input cases does not analyze"
mkdir -p "$e2e_tmp/empty" "$e2e_tmp/full"
echo keep >"$e2e_tmp/full/file"

expect_one_line_error "analyze without -o" "$analyzer" "$e2e_tmp/trace"
expect_one_line_error "analyze of a nonexistent trace" "$analyzer" "$e2e_tmp/none" -o "$e2e_tmp/r1"
expect_one_line_error "analyze of a directory with no trace" "$analyzer" "$e2e_tmp/empty" -o "$e2e_tmp/r2"
expect_one_line_error "analyze --kernels 5:2" "$analyzer" "$e2e_tmp/trace" -o "$e2e_tmp/r3" --kernels 5:2
expect_one_line_error "analyze --kernels x" "$analyzer" "$e2e_tmp/trace" -o "$e2e_tmp/r4" --kernels x
expect_one_line_error "analyze --kernels 1:" "$analyzer" "$e2e_tmp/trace" -o "$e2e_tmp/r5" --kernels 1:
expect_one_line_error "analyze with an unknown option" "$analyzer" "$e2e_tmp/trace" -o "$e2e_tmp/r6" --bogus
expect_one_line_error "analyze into a non-empty directory" "$analyzer" "$e2e_tmp/trace" -o "$e2e_tmp/full"
[ "$(cat "$e2e_tmp/full/file")" = keep ] || { echo "analyze overwrote a non-empty output directory" >&2; failures=$((failures + 1)); }

expect_one_line_error "dnntrace analyze without arguments" "$DNNTRACE" analyze
expect_one_line_error "dnntrace analyze of a nonexistent trace" "$DNNTRACE" analyze "$e2e_tmp/none" -o "$e2e_tmp/r7"
expect_one_line_error "dnntrace with an unknown command" "$DNNTRACE" frobnicate
expect_one_line_error "dnntrace without a command" "$DNNTRACE"
expect_one_line_error "record without -o" "$DNNTRACE" record -- true
expect_one_line_error "record without a command" "$DNNTRACE" record -o "$e2e_tmp/t1"
expect_one_line_error "record without --" "$DNNTRACE" record -o "$e2e_tmp/t2" true
expect_one_line_error "record with an unknown option" "$DNNTRACE" record --bogus -o "$e2e_tmp/t3" -- true
expect_one_line_error "record into a non-empty directory" "$DNNTRACE" record -o "$e2e_tmp/full" -- true
expect_one_line_error "env with an unknown option" "$DNNTRACE" env --bogus
expect_one_line_error "post_process.sh without arguments" "$DNNTRACE_ROOT/scripts/post_process.sh"
expect_one_line_error "start_tracing.sh without -o" "$DNNTRACE_ROOT/scripts/start_tracing.sh"
expect_one_line_error "stop_tracing.sh without a session" env DNNTRACE_STATE_DIR="$e2e_tmp/empty" "$DNNTRACE_ROOT/scripts/stop_tracing.sh"
[ -z "$(ls -A "$e2e_tmp/full" | grep -v '^file$')" ] || fail "something wrote into a non-empty directory"
[ "$failures" = 0 ] || fail "$failures bad-input cases misbehaved"
exit 0
