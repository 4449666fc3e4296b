#!/usr/bin/env bash
# End-to-end: steps.csv, the training steps of a report (the NVTX ranges
# that mark a step: `*_step`, `step`, or --range NAME), on the NVTX
# workload (tests/workloads/nvtx_steps.c: three train_step start/end
# ranges, a launch between steps 1 and 2, a second thread launching in
# step 2). Checks against what it knows by construction (check_steps.py):
# each step's number (the timeline's ProfilerStep#N), name, exact start
# and end (the trace's own nvtx start/end events), its first and last
# kernel, kernel count and peak live bytes; under `--range train_step:2`
# the three steps are still listed and only step 2 holds the window's
# kernels (renumbered from 0); a workload with no step range writes the
# header alone; steps.csv and the timeline agree on the step numbers; the
# memory plot draws a line at each step's first kernel.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/nvtx_steps"
require_built "$workload" "$WORKLOADS/mem_categories" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"

record_like_untraced "$workload"
babeltrace2 --clock-cycles "$e2e_tmp/trace" >"$e2e_tmp/trace.txt" 2>/dev/null ||
	fail "babeltrace2 cannot read the trace"

analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >/dev/null 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
python3 "$E2E_DIR/check_steps.py" whole "$e2e_tmp/truth" "$e2e_tmp/report" \
	"$e2e_tmp/trace.txt" >"$e2e_tmp/whole.out" ||
	fail "steps.csv differs from ground truth: $(head -n 3 "$e2e_tmp/whole.out")"

# The timeline's ProfilerStep#N is steps.csv's step N: the same span (the
# JSON's whole µs, each end rounded to the nearest).
python3 - "$e2e_tmp/report/timeline.json" "$e2e_tmp/report/steps.csv" <<'PY' ||
import csv, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
slices = {e["name"]: e for e in ev if e["ph"] == "X" and e["name"].startswith("ProfilerStep#")}
rows = list(csv.DictReader(open(sys.argv[2])))
us = lambda ns: (int(ns) + 500) // 1000
ok = len(slices) == len(rows) == 3 and all(
    slices[f"ProfilerStep#{r['step']}"]["ts"] == us(r["start_ns"]) and
    slices[f"ProfilerStep#{r['step']}"]["ts"] + slices[f"ProfilerStep#{r['step']}"]["dur"] == us(r["end_ns"])
    for r in rows)
sys.exit(0 if ok else 1)
PY
	fail "steps.csv and timeline.json's ProfilerStep slices disagree"

# The memory plot's step lines: at each step's first kernel, by
# construction (the first kernel of each step in nvtx_kernels.csv), and
# the picture changes with them (when matplotlib is there to draw it).
python3 - "$DNNTRACE_ROOT/scripts/lib" "$e2e_tmp/report" "$e2e_tmp/truth" <<'PY' ||
import csv, sys
sys.path.insert(0, sys.argv[1])
import dnntrace_plot
kernels = list(csv.DictReader(open(sys.argv[3] + "/nvtx_kernels.csv")))
want = [(min(int(k["index"]) for k in kernels if k["step"] == str(n)), f"step {n}")
        for n in (1, 2, 3)]
got = dnntrace_plot.step_marks(sys.argv[2])
sys.exit(0 if got == want else f"step marks {got}, expected {want}")
PY
	fail "the memory plot's step marks differ from the steps' first kernels"
if python3 -c 'import matplotlib' 2>/dev/null; then
	"$DNNTRACE" plot "$e2e_tmp/report" >/dev/null 2>"$e2e_tmp/plot.err" ||
		fail "dnntrace plot failed: $(tail -n 1 "$e2e_tmp/plot.err")"
	mv "$e2e_tmp/report/plots/memory_over_kernels.png" "$e2e_tmp/with_steps.png"
	head -n 1 "$e2e_tmp/report/steps.csv" >"$e2e_tmp/header.csv"
	mv "$e2e_tmp/header.csv" "$e2e_tmp/report/steps.csv"
	"$DNNTRACE" plot "$e2e_tmp/report" >/dev/null 2>"$e2e_tmp/plot.err" ||
		fail "dnntrace plot without steps failed: $(tail -n 1 "$e2e_tmp/plot.err")"
	! cmp -s "$e2e_tmp/with_steps.png" "$e2e_tmp/report/plots/memory_over_kernels.png" ||
		fail "the memory plot is the same with and without steps"
fi

analyze "$e2e_tmp/trace" -o "$e2e_tmp/step2" --range train_step:2 >/dev/null 2>"$e2e_tmp/range.err" ||
	fail "analyze --range train_step:2 exited $?: $(tail -n 1 "$e2e_tmp/range.err")"
python3 "$E2E_DIR/check_steps.py" window "$e2e_tmp/truth" "$e2e_tmp/step2" \
	"$e2e_tmp/trace.txt" 2 >"$e2e_tmp/window.out" ||
	fail "steps.csv of --range train_step:2 differs: $(head -n 3 "$e2e_tmp/window.out")"

# No step range: the header alone.
record "$e2e_tmp/plain-trace" "$WORKLOADS/mem_categories" "$e2e_tmp/plain-truth" >/dev/null 2>"$e2e_tmp/plain.err" ||
	fail "record plain failed: $(tail -n 1 "$e2e_tmp/plain.err")"
analyze "$e2e_tmp/plain-trace" -o "$e2e_tmp/plain-report" >/dev/null 2>"$e2e_tmp/plain-analyze.err" ||
	fail "analyze plain exited $?: $(tail -n 1 "$e2e_tmp/plain-analyze.err")"
[ "$(cat "$e2e_tmp/plain-report/steps.csv")" = \
  "step,name,start_ns,end_ns,first_kernel,last_kernel,kernels,peak_bytes" ] ||
	fail "a trace without steps: steps.csv is not its header alone"
exit 0
