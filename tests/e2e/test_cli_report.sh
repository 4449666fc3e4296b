#!/usr/bin/env bash
# What the command line adds to a report: the version in the trace (the
# tracer's status event), in summary.txt (its last line,
# include/dnntrace_version.h's) and in timeline.json
# (otherData.version); progress on stderr while analysing only when stderr
# is a terminal (a pseudo-terminal from util-linux's script(1) here): the
# phase and the events decoded (and events/s on traces that take longer
# than this one), rewritten in place and cleared at the end; with stderr a
# file, nothing at all.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/nvtx_steps"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"
command -v script >/dev/null || skip "no script(1) (util-linux) for a pseudo-terminal"
version=$(sed -n 's/^#define DNNTRACE_VERSION "\(.*\)"$/\1/p' "$DNNTRACE_ROOT/include/dnntrace_version.h")

record "$e2e_tmp/trace" "$workload" "$e2e_tmp/truth" >/dev/null 2>"$e2e_tmp/record.err" ||
	fail "record exited $?: $(tail -n 1 "$e2e_tmp/record.err")"
# the tracer stamps its version into the trace (its status event)
babeltrace2 "$e2e_tmp/trace" 2>/dev/null | grep 'dnntrace_api:status' | grep -qF "version = \"$version\"" ||
	fail "the trace's status event lacks version $version"
analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >"$e2e_tmp/summary.out" 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
[ ! -s "$e2e_tmp/analyze.err" ] || fail "stderr not a terminal, yet: $(head -c 200 "$e2e_tmp/analyze.err")"
[ "$(tail -n 1 "$e2e_tmp/report/summary.txt")" = "report by dnntrace-analyze $version" ] ||
	fail "summary.txt ends with: $(tail -n 1 "$e2e_tmp/report/summary.txt")"
python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["otherData"]["version"] != sys.argv[2])' \
	"$e2e_tmp/report/timeline.json" "$version" || fail "timeline.json lacks version $version"

# On a terminal: the progress line, only on stderr (stdout to a file).
events=$(babeltrace2 "$e2e_tmp/trace" 2>/dev/null | wc -l)
started_ns=$(date +%s%N)
script -qec "$(printf '%q ' "$DNNTRACE" analyze "$e2e_tmp/trace" -o "$e2e_tmp/tty") >$(printf '%q' "$e2e_tmp/tty.out")" \
	"$e2e_tmp/typescript" >/dev/null 2>&1 || fail "analyze on a terminal failed"
cmp -s "$e2e_tmp/tty.out" "$e2e_tmp/summary.out" || fail "stdout differs on a terminal"
tr '\r' '\n' <"$e2e_tmp/typescript" >"$e2e_tmp/progress"
# The supervisor looks every 0.1 s: on an idle machine a small trace can
# decode between two looks, and then the first line it shows is the next
# phase's, with the events decoded (seen in a run on an idle machine).
# and a whole analysis that ends before the first look (0.1 s) shows
# nothing, which is right: a line is owed only to a run that lasted longer.
elapsed_ms=$((($(date +%s%N) - started_ns) / 1000000))
if [ "$elapsed_ms" -ge 1000 ]; then
	grep -Eq "^.\[Kdnntrace-analyze: (decoding: [0-9]+ events|analyzing and writing the report \([0-9]+ events decoded\))" \
		"$e2e_tmp/progress" ||
		fail "no progress line on the terminal after $elapsed_ms ms: $(head -c 300 "$e2e_tmp/progress")"
fi
# A small trace decodes between two looks (every 0.1 s): the counts shown
# can only be checked not to exceed the trace's events.
counts=$(grep -o '[0-9]* events' "$e2e_tmp/progress" | grep -o '^[0-9]*')
for n in $counts; do
	[ "$n" -le "$events" ] || fail "progress shows $n events, the trace has $events"
done
if grep -q "dnntrace-analyze: " "$e2e_tmp/progress"; then
	grep -q $'\033\\[K$' "$e2e_tmp/progress" || fail "the progress line is not cleared at the end"
fi
exit 0
