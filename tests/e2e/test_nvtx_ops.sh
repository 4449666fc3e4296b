#!/usr/bin/env bash
# End-to-end: NVTX names (tests/workloads/nvtx_steps.c: three train_step
# start/end ranges, push/pop op ranges nested inside them, a launch outside
# any range, a second thread launching in its own push range) recorded with
# `dnntrace record --simgpu` (which makes libdnntrace.so the NVTX injection
# library). Checks, against ground truth known by construction: the whole
# report as compare.py does plus the op of every kernel (kernels.csv `op`,
# kernels.config `op(name(args))`); `--range train_step:2` is exactly step
# 2's kernels with G10's globals for that window; timeline.json follows the
# trace-event rules and holds the truth's kernels, tensors, threads and
# streams; tracing changes neither output nor status.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/nvtx_steps"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"
check() { python3 "$E2E_DIR/check_nvtx_ops.py" "$@"; }

record_like_untraced "$workload"
babeltrace2 "$e2e_tmp/trace" 2>/dev/null | grep -q 'dnntrace_nvtx:push' ||
	fail "no dnntrace_nvtx event in the trace (NVTX injection not loaded)"

analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >"$e2e_tmp/summary.out" 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
cmp -s "$e2e_tmp/summary.out" "$e2e_tmp/report/summary.txt" || fail "stdout is not summary.txt"
check whole "$e2e_tmp/truth" "$e2e_tmp/report" >"$e2e_tmp/whole.out" ||
	fail "whole report differs from ground truth: $(head -n 3 "$e2e_tmp/whole.out")"
# timeline.json: the format's rules, the truth's kernels, tensors and active
# bytes, and a track for each of the two threads and two streams, and the
# three train_step start/end ranges as ProfilerStep#1..3 slices (Kineto's
# convention, which HTA reads), named for their range
python3 "$DNNTRACE_ROOT/tests/analysis/check_timeline.py" "$e2e_tmp/report/timeline.json" \
	"$e2e_tmp/truth" >"$e2e_tmp/timeline.out" ||
	fail "timeline.json: $(head -n 3 "$e2e_tmp/timeline.out")"
python3 - "$e2e_tmp/report/timeline.json" <<'PY' || fail "timeline.json lacks a thread, stream or step"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = [e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"]
threads = [n for n in names if "thread " in n]
streams = [n for n in names if n.startswith("stream ")]
steps = [e for e in ev if e["ph"] == "X" and e.get("cat") == "user_annotation"
         and e["name"].startswith("ProfilerStep#") and e["args"]["range"] == "train_step"]
sys.exit(0 if len(threads) == 2 and len(streams) == 2 and
         sorted(e["name"] for e in steps) == ["ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#3"] else 1)
PY

analyze "$e2e_tmp/trace" -o "$e2e_tmp/step2" --range train_step:2 >/dev/null 2>"$e2e_tmp/range.err" ||
	fail "analyze --range train_step:2 exited $?: $(tail -n 1 "$e2e_tmp/range.err")"
check step "$e2e_tmp/truth" "$e2e_tmp/step2" 2 train_step:2 >"$e2e_tmp/step2.out" ||
	fail "--range train_step:2 differs from ground truth: $(head -n 3 "$e2e_tmp/step2.out")"
exit 0
