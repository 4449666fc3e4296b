#!/usr/bin/env bash
# End-to-end: timeline.json in the PyTorch profiler's (Kineto's)
# conventions, the ones Holistic Trace Analysis relies on
# (tests/analysis/check_kineto.py; HTA itself is not needed), on two
# workloads whose content is known by construction: cnn_train (the demo:
# cuDNN/cuBLAS ops, their kernels, copies both ways, 127 named tensors, no
# steps) and nvtx_steps (three train_step ranges: ProfilerStep#1..3, two
# threads, two streams). Also: the general trace-event rules
# (check_timeline.py). A window's timeline (--range, --kernels):
# test_timeline_window.sh.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
require_built "$WORKLOADS/cnn_train" "$WORKLOADS/nvtx_steps" \
	"$DNNTRACE_BUILD/lib/libdnntrace.so" "$DNNTRACE_BUILD/bin/dnntrace-analyze" \
	"$SIMGPU_LIB/libcudart.so.13"
kineto() { python3 "$DNNTRACE_ROOT/tests/analysis/check_kineto.py" "$@"; }
rules() { python3 "$DNNTRACE_ROOT/tests/analysis/check_timeline.py" "$@"; }

for workload in cnn_train nvtx_steps; do
	dir="$e2e_tmp/$workload"
	record "$dir/trace" "$WORKLOADS/$workload" "$dir/truth" >/dev/null 2>"$dir.record.err" ||
		fail "$workload: record exited $?: $(tail -n 1 "$dir.record.err")"
	analyze "$dir/trace" -o "$dir/report" >/dev/null 2>"$dir.analyze.err" ||
		fail "$workload: analyze exited $?: $(tail -n 1 "$dir.analyze.err")"
	[ -f "$dir/report/timeline.json" ] || fail "$workload: no timeline.json"
	steps=0
	[ "$workload" = nvtx_steps ] && steps=3
	kineto "$dir/report/timeline.json" "$dir/truth" "$steps" >"$dir.kineto.out" ||
		fail "$workload: not in Kineto's conventions: $(head -n 3 "$dir.kineto.out")"
	rules "$dir/report/timeline.json" "$dir/truth" >"$dir.rules.out" ||
		fail "$workload: trace-event rules: $(head -n 3 "$dir.rules.out")"
done

exit 0
