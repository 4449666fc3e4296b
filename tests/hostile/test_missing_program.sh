#!/usr/bin/env bash
# Command line: a program that does not exist gets the shell's message and
# status (127; 126 for one that cannot be run) before anything starts: no
# trace directory, no "trace written". A program that makes no traced call
# gives a trace whose report says so and exits 0.
. "$DNNTRACE_ROOT/tests/hostile/lib.sh"
"$DNNTRACE" record -o "$TEST_TMP/none" -- no-such-program-dnntrace 2>"$TEST_TMP/err1"
status=$?
[ "$status" = 127 ] || fail "missing program: record exited $status, not 127"
[ "$(cat "$TEST_TMP/err1")" = "dnntrace: no-such-program-dnntrace: command not found" ] ||
	fail "missing program: $(cat "$TEST_TMP/err1")"
[ ! -e "$TEST_TMP/none" ] || fail "missing program: the trace directory was created"
"$DNNTRACE" record -o "$TEST_TMP/none" -- ./no/such/path 2>"$TEST_TMP/err2"
[ $? = 127 ] && [ "$(cat "$TEST_TMP/err2")" = "dnntrace: ./no/such/path: No such file or directory" ] ||
	fail "missing path: $(cat "$TEST_TMP/err2")"
touch "$TEST_TMP/not-executable"
"$DNNTRACE" record -o "$TEST_TMP/none" -- "$TEST_TMP/not-executable" 2>"$TEST_TMP/err3"
[ $? = 126 ] && grep -q 'Permission denied$' "$TEST_TMP/err3" || fail "not executable: $(cat "$TEST_TMP/err3")"

# No traced call at all: a clean run, a report that says so.
hostile_record "$TEST_TMP/quiet" "$FLOOD" 0 >/dev/null 2>"$TEST_TMP/err4" ||
	fail "record of a program without CUDA calls failed: $(cat "$TEST_TMP/err4")"
analyze "$TEST_TMP/quiet" -o "$TEST_TMP/report" >"$TEST_TMP/analyze.out" 2>&1 ||
	fail "analyze of a trace without traced calls failed: $(cat "$TEST_TMP/analyze.out")"
grep -qx 'no CUDA allocation, copy or launch was traced' "$TEST_TMP/analyze.out" ||
	fail "the report does not say nothing was traced: $(cat "$TEST_TMP/analyze.out")"
grep -qx 'no CUDA allocation, copy or launch was traced' "$TEST_TMP/report/summary.txt" ||
	fail "summary.txt does not say nothing was traced"
exit 0
