#!/usr/bin/env bash
# The fuzz harness's smoke run inside the suite: two small recorded traces
# (the emitter's main and bulk 900 in 8 KiB packets), 200 seeded mutations
# (make fuzz runs 5000 on four traces), the build under test's analyzer
# (the ASan one in the sanitizer pass). Fails on any crash, hang, leak or
# failure without one clean stderr line, and on a silent difference from
# any mutation but bit flips, overwrites or zeroes in event payload and
# layout-keeping metadata edits (values the format cannot check). Starts
# no case after 20 s so a loaded machine stays within the suite's time
# limit, but at least 20 must run.
set -u
. "$DNNTRACE_ROOT/tests/lib/common.sh"
require_command lttng lttng-sessiond
analyze="$DNNTRACE_BUILD/bin/dnntrace-analyze"
[ -x "$analyze" ] || fail "build first ($analyze)"
work=$TEST_TMP
mapfile -t traces < <("$DNNTRACE_ROOT/tests/fuzz/record_traces.sh" "$DNNTRACE_BUILD" \
	"$work/traces" smoke)
[ "${#traces[@]}" = 2 ] || fail "recording the smoke traces failed"
python3 "$DNNTRACE_ROOT/tests/fuzz/fuzz_analyzer.py" --analyzer "$analyze" \
	--cases 200 --seed smoke --jobs 2 --watchdog 10 --timeout 30 \
	--budget-s 20 --min-cases 20 --work "$work/cases" "${traces[@]}" >"$work/result"
rc=$?
cat "$work/result"
[ "$rc" = 0 ] || fail "the fuzz smoke found failures"
# silent differences: only values the format cannot check: event payload,
# and metadata edits that keep the same byte layout (fields of one struct
# swapped, the clock's frequency or offset; fuzz_analyzer.py says why)
if grep '^  silent: ' "$work/result" | grep -v -E \
	-e 'x (bitflip|overwrite|zero) in stream events$' \
	-e 'x metadata_text in metadata (field order|clock values)$'; then
	fail "a silent difference outside event payload"
fi
echo "fuzz smoke: no crash, hang, leak or unclean failure"
