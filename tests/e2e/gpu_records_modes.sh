# shellcheck shell=bash
# gpu_records_modes.sh: what test_gpu_records_graphs.sh and
# test_gpu_records_libraries.sh share, sourced after tests/e2e/lib.sh:
# a workload recorded with each --gpu-records mode, and the checks every
# mode must pass. Must never start a global session daemon.

# record_mode MODE WORKLOAD: WORKLOAD run untraced (once per workload) and
# under `dnntrace record --simgpu --gpu-records=MODE` into
# $e2e_tmp/NAME.MODE/{trace,truth,report,report-op}: same status, stdout
# and ground truth, nothing lost, both granularities analyzed, and the
# summary names MODE.
record_mode() {
	local mode=$1 workload=$2 name dir
	name=$(basename "$workload")
	dir=$e2e_tmp/$name.$mode
	mkdir -p "$dir"
	if [ ! -f "$e2e_tmp/$name.untraced.out" ]; then
		untraced "$workload" "$e2e_tmp/$name.truth-untraced" >"$e2e_tmp/$name.untraced.out" \
			2>"$e2e_tmp/$name.untraced.err" || fail "untraced $name failed: $(tail -n 1 "$e2e_tmp/$name.untraced.err")"
	fi
	"${record_isolation[@]}" env "${tracer_env[@]}" "$DNNTRACE" record --simgpu --gpu-records="$mode" \
		-o "$dir/trace" -- "$workload" "$dir/truth" >"$dir/traced.out" 2>"$dir/record.err" ||
		fail "$name, $mode: record exited $?: $(tail -n 2 "$dir/record.err")"
	cmp -s "$e2e_tmp/$name.untraced.out" "$dir/traced.out" || fail "$name, $mode: stdout differs when traced"
	diff -r "$e2e_tmp/$name.truth-untraced" "$dir/truth" >/dev/null ||
		fail "$name, $mode: ground truth differs when traced"
	check_no_discarded "$dir/trace"
	analyze "$dir/trace" -o "$dir/report" >/dev/null 2>"$dir/analyze.err" ||
		fail "$name, $mode: analyze exited $?: $(tail -n 1 "$dir/analyze.err")"
	if [ -d "$dir/truth/op" ]; then
		analyze "$dir/trace" -o "$dir/report-op" --granularity op >/dev/null 2>"$dir/analyze-op.err" ||
			fail "$name, $mode: analyze --granularity op exited $?: $(tail -n 1 "$dir/analyze-op.err")"
	fi
	grep -qx "gpu records: $mode (.*)" "$dir/report/summary.txt" ||
		fail "$name, $mode: the summary does not name the mode: $(grep '^gpu records' "$dir/report/summary.txt")"
}

# same_kernels NAME MODE REFERENCE: kernels.csv of NAME.MODE equals
# NAME.REFERENCE's but for the GPU times (kernel granularity, and op
# granularity when there).
same_kernels() {
	local name=$1 mode=$2 reference=$3 report
	for report in report report-op; do
		[ -f "$e2e_tmp/$name.$reference/$report/kernels.csv" ] || continue
		python3 - "$e2e_tmp/$name.$reference/$report/kernels.csv" "$e2e_tmp/$name.$mode/$report/kernels.csv" <<'PY' ||
import csv, sys
TIMES = {"start_ns", "end_ns", "duration_ns"}
def rows(path):
    return [{k: v for k, v in r.items() if k not in TIMES} for r in csv.DictReader(open(path))]
full, other = rows(sys.argv[1]), rows(sys.argv[2])
for i, (a, b) in enumerate(zip(full, other)):
    if a != b:
        print(f"row {i}: full {a} vs {b}")
        sys.exit(1)
sys.exit(0 if len(full) == len(other) and full else 1)
PY
			fail "$name, $mode: $report/kernels.csv differs from --gpu-records=$reference's beyond GPU times"
	done
}
