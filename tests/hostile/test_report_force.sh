#!/usr/bin/env bash
# Command line: --force replaces an older report whole (a three-process
# report's index.csv and pid*-dev*/ folders do not survive under a new
# single-process one; a file of the user's does); an output path that cannot
# be a report directory is refused with one line before any decoding.
. "$DNNTRACE_ROOT/tests/hostile/lib.sh"
hostile_record "$TEST_TMP/three" sh -c '"$0" 5 & "$0" 6 & "$0" 7; wait' "$FLOOD" \
	>/dev/null 2>"$TEST_TMP/err" || fail "record of three processes failed: $(cat "$TEST_TMP/err")"
hostile_record "$TEST_TMP/one" "$FLOOD" 4 >/dev/null 2>"$TEST_TMP/err" ||
	fail "record of one process failed: $(cat "$TEST_TMP/err")"
report="$TEST_TMP/report"
analyze "$TEST_TMP/three" -o "$report" >/dev/null 2>&1 || fail "analyze of three processes failed"
ls -d "$report"/pid*-dev0 >/dev/null 2>&1 && [ -f "$report/index.csv" ] ||
	fail "the three-process report has no index.csv or pid*-dev0/: $(ls "$report")"
echo keep >"$report/notes-of-mine.txt"
analyze "$TEST_TMP/one" -o "$report" --force >/dev/null 2>"$TEST_TMP/analyze.err" ||
	fail "analyze --force failed: $(cat "$TEST_TMP/analyze.err")"
leftover=$(cd "$report" && ls -d index.csv pid*-dev* 2>/dev/null | paste -sd' ' -)
[ -z "$leftover" ] || fail "the old report's files survived --force: $leftover"
[ "$(cat "$report/notes-of-mine.txt")" = keep ] || fail "--force removed a file no report writes"
[ -f "$report/summary.txt" ] && [ -f "$report/tensors.config" ] || fail "the new report is not there"

# An output path that is a file, or below one: one line, exit 1, at once
# (before decoding: a trace that does not exist is not even looked at).
touch "$TEST_TMP/a-file"
for out in "$TEST_TMP/a-file" "$TEST_TMP/a-file/below"; do
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$TEST_TMP/no-such-trace" -o "$out" \
		>"$TEST_TMP/out" 2>"$TEST_TMP/bad.err"
	status=$?
	[ "$status" = 1 ] && [ "$(wc -l <"$TEST_TMP/bad.err")" = 1 ] ||
		fail "-o $out: exit $status, stderr: $(cat "$TEST_TMP/bad.err")"
	grep -q 'not a directory\|Not a directory' "$TEST_TMP/bad.err" ||
		fail "-o $out: $(cat "$TEST_TMP/bad.err")"
done
exit 0
