#!/usr/bin/env bash
# End-to-end: timeline.json, overheads.csv, gpu_time.csv and the summary's
# GPU time section. tests/workloads/overhead_ops.c makes ops whose host
# gaps are sleeps of known length and whose kernels have exact durations
# (check_overheads.py: T1..T5 within sleep bounds that hold on a loaded
# machine, device times and busy time to the ns); its timeline must follow
# the trace-event format's rules and hold exactly the workload's kernels
# (names with quotes, a backslash, a tab, non-ASCII), streams, tensors,
# launch arrows and active bytes (tests/analysis/check_timeline.py;
# test_nvtx_ops.sh checks nvtx_steps' timeline: threads, start/end ranges).
# Also: --no-timeline writes none, a failed run leaves none behind.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
ops="$WORKLOADS/overhead_ops"
require_built "$ops" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"
check_timeline() { python3 "$DNNTRACE_ROOT/tests/analysis/check_timeline.py" "$@"; }

record_like_untraced "$ops"

analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >"$e2e_tmp/summary.out" 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
cmp -s "$e2e_tmp/summary.out" "$e2e_tmp/report/summary.txt" || fail "stdout is not summary.txt"
python3 "$E2E_DIR/check_overheads.py" "$e2e_tmp/truth" "$e2e_tmp/report" >"$e2e_tmp/overheads.out" ||
	fail "overheads/GPU time differ from ground truth: $(head -n 3 "$e2e_tmp/overheads.out")"
check_timeline "$e2e_tmp/report/timeline.json" "$e2e_tmp/truth" >"$e2e_tmp/timeline.out" ||
	fail "overhead_ops timeline: $(head -n 3 "$e2e_tmp/timeline.out")"
# the upload: a cudaMemcpy slice from its entry to its return, its arrow
# to the 1 MiB GPU copy (from calloc'd memory: Pageable, trace format 7)
python3 - "$e2e_tmp/report/timeline.json" <<'PY' || fail "timeline.json: the upload's slice or arrow is wrong"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
host = [e for e in ev if e["ph"] == "X" and e["name"] == "cudaMemcpy"]
gpu = [e for e in ev if e["ph"] == "X" and e.get("cat") == "gpu_memcpy"
       and e["name"] == "Memcpy HtoD (Pageable -> Device)"]  # calloc: pageable
assert len(host) == 1 and len(gpu) == 1, (len(host), len(gpu))
assert host[0]["dur"] > 0 and host[0]["args"]["bytes"] == 1048576
assert gpu[0]["args"]["bytes"] == 1048576 and gpu[0]["dur"] > 0
# bytes per ns of the exact duration, which the whole-us dur is within 1 us of
bw = gpu[0]["args"]["memory bandwidth (GB/s)"]
assert 1048576 / ((gpu[0]["dur"] + 1) * 1000) <= bw <= 1048576 / ((gpu[0]["dur"] - 1) * 1000), bw
assert host[0]["args"]["correlation"] == gpu[0]["args"]["correlation"] == \
    host[0]["args"]["External id"] == gpu[0]["args"]["External id"]
starts = {e["id"]: e for e in ev if e["ph"] == "s"}
ends = [e for e in ev if e["ph"] == "f" and (e["pid"], e["tid"]) == (gpu[0]["pid"], gpu[0]["tid"])
        and e["ts"] == gpu[0]["ts"]]
assert len(ends) == 1 and starts[ends[0]["id"]]["ts"] == host[0]["ts"]
PY

analyze "$e2e_tmp/trace" -o "$e2e_tmp/no-timeline" --no-timeline >/dev/null 2>&1 ||
	fail "analyze --no-timeline exited $?"
[ ! -e "$e2e_tmp/no-timeline/timeline.json" ] || fail "--no-timeline wrote timeline.json"
[ -f "$e2e_tmp/no-timeline/overheads.csv" ] || fail "--no-timeline dropped overheads.csv"
mkdir "$e2e_tmp/not-a-trace"
analyze "$e2e_tmp/not-a-trace" -o "$e2e_tmp/failed" >/dev/null 2>&1 && fail "analyze of a non-trace succeeded"
[ ! -e "$e2e_tmp/failed" ] || fail "a failed run left $(ls "$e2e_tmp/failed") behind"
analyze "$e2e_tmp/trace" -o "$e2e_tmp/bad-range" --range no_such_range >/dev/null 2>&1 &&
	fail "--range no_such_range succeeded"
[ ! -e "$e2e_tmp/bad-range/timeline.json" ] || fail "a usage error left timeline.json behind"
exit 0
