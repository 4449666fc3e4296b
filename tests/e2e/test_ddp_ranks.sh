#!/usr/bin/env bash
# End-to-end: several processes in one recording, as torchrun/DDP runs them:
# ddp_launch.sh starts 3 ranks of torch_async_alloc, each on its own
# simulated device (cudaSetDevice(LOCAL_RANK)), all under one `dnntrace
# record`. Tracing changes neither output nor status; the analysis writes
# one report per (process, device), pid<PID>-dev<RANK>, each equal to its
# rank's ground truth, and index.csv and the head of summary.txt list the
# three with their pid, device, kernels, tensors and peak, and the totals.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/torch_async_alloc"
launch="$E2E_DIR/ddp_launch.sh"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"

untraced "$launch" 3 "$e2e_tmp/truth-untraced" "$workload" >"$e2e_tmp/untraced.out" 2>"$e2e_tmp/untraced.err" ||
	fail "untraced ranks failed: $(tail -n 1 "$e2e_tmp/untraced.err")"
record "$e2e_tmp/trace" "$launch" 3 "$e2e_tmp/truth" "$workload" >"$e2e_tmp/traced.out" 2>"$e2e_tmp/record.err"
status=$?
[ "$status" = 0 ] || fail "record exited $status: $(tail -n 2 "$e2e_tmp/record.err")"
cmp -s "$e2e_tmp/untraced.out" "$e2e_tmp/traced.out" || fail "stdout differs when traced"
grep -q '^torch_async_alloc: rank 2 device 2,' "$e2e_tmp/traced.out" || fail "rank 2 did not run on device 2"
diff -r -x pids "$e2e_tmp/truth-untraced" "$e2e_tmp/truth" >/dev/null || fail "ground truth differs when traced"
check_no_discarded "$e2e_tmp/trace"

analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >"$e2e_tmp/summary.out" 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
cmp -s "$e2e_tmp/summary.out" "$e2e_tmp/report/summary.txt" || fail "stdout is not summary.txt"
python3 "$E2E_DIR/check_ranks.py" "$e2e_tmp/truth" "$e2e_tmp/report" 3 ||
	fail "the per-rank reports or the summary across them differ from the ground truth"
# One timeline per process (Kineto's one file per rank, so HTA reads the
# report directory as a 3-rank job): timeline-pid<PID>.json, each with a
# rank of its own, its own process's calls and its own device's GPU work.
python3 - "$e2e_tmp/report" <<'PY' || fail "the per-process timelines are wrong"
import glob, json, os, re, sys
report = sys.argv[1]
assert not os.path.exists(os.path.join(report, "timeline.json"))
files = sorted(glob.glob(os.path.join(report, "timeline-pid*.json")))
ranks, devices = [], []
for path in files:
    doc = json.load(open(path))
    pid = int(re.search(r"timeline-pid(\d+)\.json$", path).group(1))
    events = doc["traceEvents"]
    host = {e["pid"] for e in events if e.get("cat", "").startswith("cuda_")}
    gpu = {e["pid"] for e in events if e.get("cat") == "kernel"}
    assert host == {pid}, (path, host)
    assert len(gpu) == 1 and [d["id"] for d in doc["deviceProperties"]] == list(gpu), (path, gpu)
    ranks.append(doc["distributedInfo"]["rank"])
    devices += gpu
assert len(files) == 3 and sorted(ranks) == [0, 1, 2] and sorted(devices) == [0, 1, 2], \
    (files, ranks, devices)
PY
exit 0
