#!/usr/bin/env bash
# analyzer_bench.sh [--rounds N] [--id ID] TRACE_DIR: issue 21's three
# analyzer targets, measured in this one run on TRACE_DIR and printed as
# three rows (id, what, measured, target, PASS or MISS):
#   time:  dnntrace-analyze's best wall time over babeltrace2 -o dummy's
#          (the same rounds, alternating), target <= 0.8;
#   RSS:   dnntrace-analyze's peak resident set (its supervised child and
#          threads included: wait4's ru_maxrss), target <= 150 MiB;
#   size:  the default report's bytes over the trace's (du -sb: apparent
#          bytes of every file under each directory), target <= 3; the
#          report without its timeline (--no-timeline) is measured too and
#          printed beside it.
# run_bench.sh calls it on the bench traces; it runs alone on any trace
# (the analyzer: DNNTRACE_ANALYZER, else BUILD/bin/dnntrace-analyze).
# Targets are reported, never asserted: exit non-zero only when a figure
# could not be taken. Must never write outside its own scratch directory.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
rounds=3
id="(d)"
while [ $# -gt 1 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--id) id=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] && [ -d "$1" ] || {
	echo "usage: analyzer_bench.sh [--rounds N] [--id ID] TRACE_DIR" >&2
	exit 1
}
trace=$1
analyzer=${DNNTRACE_ANALYZER:-$top/build/bin/dnntrace-analyze}
[ -x "$analyzer" ] || { echo "analyzer_bench: no analyzer at $analyzer (make all)" >&2; exit 1; }
command -v babeltrace2 >/dev/null || { echo "analyzer_bench: babeltrace2 not found" >&2; exit 1; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-analyzer-bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

events=$(babeltrace2 -c sink.utils.counter "$trace" 2>/dev/null |
	awk '/Event messages/ {n = $1} END {print n + 0}')

# Alternating rounds, so a burst of other work on the machine falls on
# both programs alike; each figure is the best wall time of its rounds and
# the largest peak RSS.
bt_s="" an_s="" bt_kib=0 an_kib=0
for _ in $(seq "$rounds"); do
	read -r s kib < <("$top/bench/measure.py" 1 babeltrace2 -o dummy "$trace")
	bt_s=$(awk -v a="$bt_s" -v b="$s" 'BEGIN {print (a == "" || b < a) ? b : a}')
	[ "$kib" -le "$bt_kib" ] || bt_kib=$kib
	rm -rf "$scratch/report"
	read -r s kib < <("$top/bench/measure.py" 1 "$analyzer" "$trace" -o "$scratch/report")
	an_s=$(awk -v a="$an_s" -v b="$s" 'BEGIN {print (a == "" || b < a) ? b : a}')
	[ "$kib" -le "$an_kib" ] || an_kib=$kib
done
trace_bytes=$(du -sb "$trace" | cut -f1)
report_bytes=$(du -sb "$scratch/report" | cut -f1)
rm -rf "$scratch/report"
"$analyzer" "$trace" -o "$scratch/report" --no-timeline >/dev/null
no_timeline_bytes=$(du -sb "$scratch/report" | cut -f1)

awk -v id="$id" -v ev="$events" -v bs="$bt_s" -v as="$an_s" -v bk="$bt_kib" \
    -v ak="$an_kib" -v tb="$trace_bytes" -v rb="$report_bytes" \
    -v nb="$no_timeline_bytes" '
function row(what, value, target, ok) {
	printf "%-4s %-66s %-28s %-10s %s\n", id, what, value, target, ok ? "PASS" : "MISS"
}
BEGIN {
	MiB = 1024 * 1024
	row(sprintf("dnntrace-analyze %.2f s vs babeltrace2 -o dummy %.2f s on %d events", as, bs, ev),
	    sprintf("ratio %.2f", as / bs), "<= 0.8", as / bs <= 0.8)
	row(sprintf("dnntrace-analyze peak RSS (babeltrace2 -o dummy: %.0f MiB)", bk / 1024),
	    sprintf("%.0f MiB", ak / 1024), "<= 150 MiB", ak <= 150 * 1024)
	row(sprintf("report %.1f MB on a %.1f MB trace (--no-timeline: %.1f MB, ratio %.2f)",
	        rb / 1e6, tb / 1e6, nb / 1e6, nb / tb),
	    sprintf("ratio %.2f", rb / tb), "<= 3", rb <= 3 * tb)
}'
