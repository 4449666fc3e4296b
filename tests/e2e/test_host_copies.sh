#!/usr/bin/env bash
# End-to-end: the timeline names each GPU copy as the PyTorch profiler
# (Kineto) does, from each end's memory kind in its CUPTI record (trace
# format 7): host memory is Pageable or Pinned whichever way it was pinned.
# tests/workloads/host_copies.c copies from and to malloc'd memory, the
# same buffer registered with cudaHostRegister and again after
# cudaHostUnregister, cudaMallocHost and cudaHostAlloc memory, and device
# to device; it writes each copy's name by construction (copies.txt). The
# timeline's gpu_memcpy slices, in GPU order, must be exactly those names,
# in timeline.json and in timeline.pftrace alike.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/host_copies"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"

record_like_untraced "$workload"
analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" --timeline both >/dev/null 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
python3 - "$e2e_tmp/report/timeline.json" "$e2e_tmp/truth/copies.txt" <<'PY' >"$e2e_tmp/names.out" ||
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
got = [e["name"] for e in sorted((e for e in ev if e.get("cat") == "gpu_memcpy"),
                                 key=lambda e: e["ts"])]
want = open(sys.argv[2]).read().splitlines()
if got != want:
    print(f"timeline.json copies {got}, expected {want}")
    sys.exit(1)
PY
	fail "$(cat "$e2e_tmp/names.out")"
# the protobuf timeline carries the same names (its slices as the JSON's)
python3 "$DNNTRACE_ROOT/tests/analysis/check_pftrace.py" "$e2e_tmp/report/timeline.pftrace" \
	"$e2e_tmp/report/timeline.json" >"$e2e_tmp/pftrace.out" 2>&1 ||
	fail "timeline.pftrace: $(head -n 3 "$e2e_tmp/pftrace.out")"
exit 0
