#!/usr/bin/env bash
# bench/analyzer_bench.sh, the analyzer rows of `make bench`, on a small
# trace (cnn_train on the simulated GPU; a function test, no timing is
# judged): three rows (time, peak RSS, report size), each with its target
# and a verdict that agrees with its figure; the size row's bytes are the
# report's and the trace's as du counts them here, for the default report
# and for --no-timeline; the RSS is the analyzer's (non-zero). A missing
# trace: usage on stderr, exit 1.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
require_command babeltrace2
workload="$DNNTRACE_BUILD/workloads/cnn_train"
[ -x "$workload" ] || fail "missing $workload (build with make all)"
bench="$DNNTRACE_ROOT/bench/analyzer_bench.sh"

"${record_isolation[@]}" "$DNNTRACE" record --simgpu --power-ms 0 -o "$scratch/trace" -- \
	"$workload" "$scratch/truth" >/dev/null 2>"$scratch/record.err" ||
	fail "record failed: $(tail -n 2 "$scratch/record.err")"

DNNTRACE_ANALYZER="$DNNTRACE_BUILD/bin/dnntrace-analyze" "$bench" --rounds 1 --id "(x)" \
	"$scratch/trace" >"$scratch/rows" 2>"$scratch/bench.err" ||
	fail "analyzer_bench.sh failed: $(tail -n 2 "$scratch/bench.err")"
[ "$(wc -l <"$scratch/rows")" -eq 3 ] || fail "not three rows: $(cat "$scratch/rows")"
grep -vq '^(x) ' "$scratch/rows" && fail "a row without its id: $(cat "$scratch/rows")"

time_row=$(sed -n 1p "$scratch/rows")
rss_row=$(sed -n 2p "$scratch/rows")
size_row=$(sed -n 3p "$scratch/rows")

# time: the ratio is the two times' quotient (as far as their printed
# digits say), the verdict the target's
events=$(babeltrace2 -c sink.utils.counter "$scratch/trace" 2>/dev/null | awk '/Event messages/ {n = $1} END {print n}')
[[ $time_row =~ dnntrace-analyze\ ([0-9.]+)\ s\ vs\ babeltrace2\ -o\ dummy\ ([0-9.]+)\ s\ on\ ([0-9]+)\ events\ +ratio\ ([0-9.]+)\ +\<=\ 0\.8\ +(PASS|MISS)$ ]] ||
	fail "time row: $time_row"
[ "${BASH_REMATCH[3]}" = "$events" ] || fail "time row counts ${BASH_REMATCH[3]} events, babeltrace2 $events"
awk -v a="${BASH_REMATCH[1]}" -v b="${BASH_REMATCH[2]}" -v r="${BASH_REMATCH[4]}" -v v="${BASH_REMATCH[5]}" \
	'BEGIN {lo = (a - 0.005) / (b + 0.005) - 0.005; hi = (a + 0.005) / (b - 0.005) + 0.005
	exit !(a > 0 && b > 0.005 && lo <= r && r <= hi && (v == "PASS") == (r <= 0.8))}' ||
	fail "time row's ratio or verdict does not follow its figures: $time_row"

# RSS: a real figure, and the verdict of 150 MiB
[[ $rss_row =~ peak\ RSS\ .*\ ([0-9]+)\ MiB\ +\<=\ 150\ MiB\ +(PASS|MISS)$ ]] || fail "RSS row: $rss_row"
[ "${BASH_REMATCH[1]}" -gt 0 ] || fail "RSS of 0: $rss_row"
[ "${BASH_REMATCH[2]}" = "$( [ "${BASH_REMATCH[1]}" -le 150 ] && echo PASS || echo MISS)" ] ||
	fail "RSS verdict: $rss_row"

# size: the bytes of the reports made here, with and without the timeline
"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$scratch/trace" -o "$scratch/report" >/dev/null ||
	fail "analyze failed"
"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$scratch/trace" -o "$scratch/report-nt" --no-timeline >/dev/null ||
	fail "analyze --no-timeline failed"
[ -e "$scratch/report/timeline.json" ] && [ ! -e "$scratch/report-nt/timeline.json" ] ||
	fail "the two reports differ otherwise than by their timeline"
tb=$(du -sb "$scratch/trace" | cut -f1)
rb=$(du -sb "$scratch/report" | cut -f1)
nb=$(du -sb "$scratch/report-nt" | cut -f1)
expected=$(awk -v r="$rb" -v t="$tb" -v n="$nb" 'BEGIN {
	printf "report %.1f MB on a %.1f MB trace (--no-timeline: %.1f MB, ratio %.2f) ratio %.2f <= 3 %s",
		r / 1e6, t / 1e6, n / 1e6, n / t, r / t, r <= 3 * t ? "PASS" : "MISS" }')
[ "$(echo "$size_row" | cut -c6- | tr -s ' ')" = "$expected" ] ||
	fail "size row: '$size_row', expected '$expected'"

# usage
set +e
"$bench" "$scratch/no-such-trace" >"$scratch/out" 2>"$scratch/err"
rc=$?
set -e
[ "$rc" -eq 1 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] && [ ! -s "$scratch/out" ] ||
	fail "a missing trace: exit $rc, stderr: $(cat "$scratch/err")"
echo "PASS: $(tr -s ' ' <"$scratch/rows" | head -c 400)"
