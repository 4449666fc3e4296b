#!/usr/bin/env bash
# End-to-end: timeline.pftrace (Perfetto's protobuf) holds the same
# slices, counters, flows and names as timeline.json for the same trace
# (tests/analysis/check_pftrace.py, a protobuf reader of its own), on
# workloads known by construction: cnn_train (the demo: library ops,
# copies, 127 tensors) and nvtx_steps (steps, NVTX ranges, two threads,
# two streams). Where protoc and Perfetto's trace proto are at hand
# (DNNTRACE_PERFETTO_PROTO=path/to/perfetto_trace.proto), the file also
# decodes with `protoc --decode=perfetto.protos.Trace`; otherwise with
# `protoc --decode_raw` when protoc is installed.
# --timeline modes: pftrace writes only the .pftrace, json only the
# .json, none neither, auto:N drops the JSON past N events (a line on
# stderr) and keeps the .pftrace whole.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
require_built "$WORKLOADS/cnn_train" "$WORKLOADS/nvtx_steps" \
	"$DNNTRACE_BUILD/lib/libdnntrace.so" "$DNNTRACE_BUILD/bin/dnntrace-analyze" \
	"$SIMGPU_LIB/libcudart.so.13"
check() { python3 "$DNNTRACE_ROOT/tests/analysis/check_pftrace.py" "$@"; }

for workload in cnn_train nvtx_steps; do
	dir="$e2e_tmp/$workload"
	record "$dir/trace" "$WORKLOADS/$workload" "$dir/truth" >/dev/null 2>"$dir.record.err" ||
		fail "$workload: record exited $?: $(tail -n 1 "$dir.record.err")"
	analyze "$dir/trace" -o "$dir/report" >/dev/null 2>"$dir.analyze.err" ||
		fail "$workload: analyze exited $?: $(tail -n 1 "$dir.analyze.err")"
	for f in timeline.json timeline.pftrace; do
		[ -s "$dir/report/$f" ] || fail "$workload: no $f by default"
	done
	check "$dir/report/timeline.pftrace" "$dir/report/timeline.json" >"$dir.check.out" ||
		fail "$workload: pftrace differs from the JSON: $(head -n 5 "$dir.check.out")"
	if command -v protoc >/dev/null; then
		if [ -n "${DNNTRACE_PERFETTO_PROTO:-}" ] && [ -f "$DNNTRACE_PERFETTO_PROTO" ]; then
			protoc --proto_path="$(dirname "$DNNTRACE_PERFETTO_PROTO")" \
				--decode=perfetto.protos.Trace "$(basename "$DNNTRACE_PERFETTO_PROTO")" \
				<"$dir/report/timeline.pftrace" >"$dir.decoded" 2>"$dir.protoc.err" ||
				fail "$workload: protoc --decode: $(head -n 3 "$dir.protoc.err")"
			grep -q 'track_event {' "$dir.decoded" ||
				fail "$workload: protoc decoded no track_event"
		else
			protoc --decode_raw <"$dir/report/timeline.pftrace" >"$dir.decoded" \
				2>"$dir.protoc.err" ||
				fail "$workload: protoc --decode_raw: $(head -n 3 "$dir.protoc.err")"
		fi
	fi
done

dir="$e2e_tmp/cnn_train"
only() {    # MODE FILE_EXPECTED FILE_ABSENT...
	local mode=$1 want=$2
	shift 2
	analyze "$dir/trace" -o "$dir/$mode" --timeline "$mode" >/dev/null 2>"$dir.$mode.err" ||
		fail "--timeline $mode exited $?: $(tail -n 1 "$dir.$mode.err")"
	[ -z "$want" ] || [ -s "$dir/$mode/$want" ] || fail "--timeline $mode: no $want"
	for absent in "$@"; do
		[ ! -e "$dir/$mode/$absent" ] || fail "--timeline $mode wrote $absent"
	done
}
only pftrace timeline.pftrace timeline.json
only json timeline.json timeline.pftrace
only none "" timeline.json timeline.pftrace
cmp -s "$dir/pftrace/timeline.pftrace" "$dir/report/timeline.pftrace" ||
	fail "--timeline pftrace wrote another file than the default"

# auto:N: the demo's JSON has some thousands of events: past 100 it is
# dropped, said on stderr, and the pftrace is whole.
analyze "$dir/trace" -o "$dir/auto" --timeline auto:100 >/dev/null 2>"$dir.auto.err" ||
	fail "--timeline auto:100 exited $?: $(tail -n 1 "$dir.auto.err")"
[ ! -e "$dir/auto/timeline.json" ] || fail "auto:100 kept timeline.json"
ls "$dir/auto" | grep -q 'partial' && fail "auto:100 left a partial file"
grep -q 'JSON timeline .* left out past 100 events' "$dir.auto.err" ||
	fail "auto:100 did not say the JSON was left out: $(cat "$dir.auto.err")"
cmp -s "$dir/auto/timeline.pftrace" "$dir/report/timeline.pftrace" ||
	fail "auto:100's pftrace differs from the default's"
analyze "$dir/trace" -o "$dir/bad" --timeline xml >/dev/null 2>"$dir.bad.err" &&
	fail "--timeline xml accepted"
[ "$(wc -l <"$dir.bad.err")" = 1 ] || fail "--timeline xml: not one line on stderr"
exit 0
