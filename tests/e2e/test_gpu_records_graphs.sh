#!/usr/bin/env bash
# --gpu-records on CUDA graphs (tests/workloads/graph_steps.c: a graph built
# node by node and one captured, each launched with cudaGraphLaunch and with
# cuGraphLaunch, between ordinary launches): with work (the default), kernels
# and full, every kernel, graph kernels included, is linked to its launch
# and the reports equal the ground truth (check_graph_launch.py), the
# summary names the mode, and kernels.csv is full's but for GPU times; work
# and kernels write their links from CUPTI callbacks, with no CUPTI API or
# external correlation record asked for (the trace itself checked for
# kernels: graph launches, links, no copy or set record; for work: copy
# records there). With off: no GPU record, the
# summary says so, and the program's output is unchanged.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/gpu_records_modes.sh"
workload="$WORKLOADS/graph_steps"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13" "$SIMGPU_LIB/libcuda.so.1"

for mode in full work kernels; do
	record_mode "$mode" "$workload"
	dir=$e2e_tmp/graph_steps.$mode
	python3 "$E2E_DIR/check_graph_launch.py" report "$dir/truth" "$dir/report" >"$dir/check.out" ||
		fail "$mode: reports differ from ground truth: $(head -n 3 "$dir/check.out")"
	[ "$mode" = full ] || same_kernels graph_steps "$mode" full
done
# (the other modes' traces: test_graph_launch.sh checks work's, the default)
dir=$e2e_tmp/graph_steps.kernels
babeltrace2 "$dir/trace" >"$dir/trace.txt" 2>/dev/null || fail "kernels: babeltrace2 cannot read the trace"
python3 "$E2E_DIR/check_graph_launch.py" trace "$dir/trace.txt" "$dir/truth" >"$dir/trace-check.out" ||
	fail "kernels: graph launches in the trace: $(head -n 3 "$dir/trace-check.out")"
grep -q 'message = "cupti .* gpu-records=kernels"' "$dir/trace.txt" ||
	fail "kernels: the status event does not name the mode"
# kernels: no copy or set record
grep -qE 'dnntrace_gpu:(memcpy|memset):' "$e2e_tmp/graph_steps.kernels/trace.txt" &&
	fail "kernels: copy or set records in the trace"
babeltrace2 "$e2e_tmp/graph_steps.work/trace" 2>/dev/null | grep -qE 'dnntrace_gpu:(memcpy|memset):' ||
	fail "work: no copy or set record (graph_steps copies)"

# off: no CUPTI at all, no warning, launches stand in for kernels
mkdir -p "$e2e_tmp/off"
"${record_isolation[@]}" env "${tracer_env[@]}" "$DNNTRACE" record --simgpu --gpu-records=off \
	-o "$e2e_tmp/off/trace" -- "$workload" "$e2e_tmp/off/truth" >"$e2e_tmp/off/traced.out" 2>"$e2e_tmp/off/record.err" ||
	fail "off: record exited $?"
cmp -s "$e2e_tmp/graph_steps.untraced.out" "$e2e_tmp/off/traced.out" || fail "off: stdout differs when traced"
grep -q 'CUPTI unavailable' "$e2e_tmp/off/record.err" && fail "off: a CUPTI warning although none was asked for"
babeltrace2 "$e2e_tmp/off/trace" 2>/dev/null | grep -qE 'dnntrace_gpu:(kernel|memcpy|memset|external_correlation)' &&
	fail "off: CUPTI records in the trace"
analyze "$e2e_tmp/off/trace" -o "$e2e_tmp/off/report" >/dev/null 2>&1 || fail "off: analyze failed"
grep -qx 'gpu records: off (.*)' "$e2e_tmp/off/report/summary.txt" || fail "off: the summary does not name the mode"
grep -q '^kernel times missing' "$e2e_tmp/off/report/summary.txt" || fail "off: kernel times not said missing"
exit 0
