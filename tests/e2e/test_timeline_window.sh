#!/usr/bin/env bash
# End-to-end: --range and --kernels window the timeline (a second read of
# the trace writes only what lies in the window's time), both files.
# nvtx_steps --range train_step:2: the kernel slices are exactly the
# truth's step-2 kernels (nvtx_kernels.csv, step 2: 10 of its 27),
# ProfilerStep#2 the only step, every GPU slice with its call (HTA's
# correlation); cnn_train --kernels 10:19: the kernel slices are the
# truth's kernels 10 to 19, by name in start order; in both the .pftrace
# has the same slices, counters and flows as the .json
# (tests/analysis/check_pftrace.py).
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
require_built "$WORKLOADS/cnn_train" "$WORKLOADS/nvtx_steps" \
	"$DNNTRACE_BUILD/lib/libdnntrace.so" "$DNNTRACE_BUILD/bin/dnntrace-analyze" \
	"$SIMGPU_LIB/libcudart.so.13"

for workload in cnn_train nvtx_steps; do
	dir="$e2e_tmp/$workload"
	record "$dir/trace" "$WORKLOADS/$workload" "$dir/truth" >/dev/null 2>"$dir.record.err" ||
		fail "$workload: record exited $?: $(tail -n 1 "$dir.record.err")"
done

dir="$e2e_tmp/nvtx_steps"
analyze "$dir/trace" -o "$dir/step2" --range train_step:2 --timeline both \
	>/dev/null 2>"$dir.step2.err" ||
	fail "--range train_step:2 exited $?: $(tail -n 1 "$dir.step2.err")"
dir2="$e2e_tmp/cnn_train"
analyze "$dir2/trace" -o "$dir2/k10" --kernels 10:19 --timeline both \
	>/dev/null 2>"$dir2.k10.err" ||
	fail "--kernels 10:19 exited $?: $(tail -n 1 "$dir2.k10.err")"

python3 - "$dir" "$dir2" >"$e2e_tmp/window.out" <<'PY' || fail "$(head -n 5 "$e2e_tmp/window.out")"
import csv, json, sys
steps_dir, cnn_dir = sys.argv[1], sys.argv[2]
bad = []

def slices(path):
    return [e for e in json.load(open(path))["traceEvents"] if e["ph"] == "X"]

def gpu_with_calls(xs, what):
    calls = {e["args"]["correlation"] for e in xs
             if e.get("cat") in ("cuda_runtime", "cuda_driver", "cpu_op")
             and "correlation" in e.get("args", {})}
    for e in xs:
        if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset") and \
                e["args"].get("correlation") not in calls:
            bad.append(f"{what}: GPU slice {e['name']} without its call")

xs = slices(f"{steps_dir}/step2/timeline.json")
truth = [r for r in csv.DictReader(open(f"{steps_dir}/truth/nvtx_kernels.csv"))]
want = sorted(r["name"] for r in truth if r["step"] == "2")
got = sorted(e["name"] for e in xs if e.get("cat") == "kernel")
if not want or got != want:
    bad.append(f"range: kernels {got}, truth's step 2 {want}")
if len(want) == len(truth):
    bad.append("range: the truth's step 2 is the whole program")
step_names = sorted(e["name"] for e in xs if e["name"].startswith("ProfilerStep"))
if step_names != ["ProfilerStep#2"]:
    bad.append(f"range: steps {step_names}")
gpu_with_calls(xs, "range")

xs = slices(f"{cnn_dir}/k10/timeline.json")
truth = list(csv.DictReader(open(f"{cnn_dir}/truth/kernels.csv")))
want = [r["name"] for r in truth if 10 <= int(r["index"]) <= 19]
got = [e["name"] for e in sorted((e for e in xs if e.get("cat") == "kernel"),
                                 key=lambda e: e["ts"])]
if len(want) != 10 or got != want:
    bad.append(f"kernels 10:19: {got}, truth {want}")
gpu_with_calls(xs, "kernels")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY

for report in "$dir/step2" "$dir2/k10"; do
	python3 "$DNNTRACE_ROOT/tests/analysis/check_pftrace.py" "$report/timeline.pftrace" \
		"$report/timeline.json" >"$report.pf.out" ||
		fail "$report: pftrace differs from the JSON: $(head -n 5 "$report.pf.out")"
done
exit 0
