#!/usr/bin/env python3
"""check_api_paths.py: a workload's CUDA calls reached the tracer by the path
the workload took (dlsym on its own handles, cuGetProcAddress, a driver
entry point), each once: every tensor the trace holds was created by ALLOC
and every tensor it frees was freed by FREE (no second event from a nested
runtime or driver call), every launch was LAUNCH, and the counts are the
ground truth's (tests/workloads/truth.h files).

  check_api_paths.py TRACE_TEXT TRUTH_DIR ALLOC FREE LAUNCH [KIND]

KIND: the mem_kind every tensor must have (e.g. stream_ordered). Prints one
line per difference; exits 1 when any.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import ALLOCS, FREES, parse_trace_text  # noqa: E402


def main(argv):
    if len(argv) not in (6, 7):
        print(__doc__, file=sys.stderr)
        return 2
    trace_text, truth_dir, alloc_api, free_api, launch_api = argv[1:6]
    kind = argv[6] if len(argv) == 7 else None
    with open(os.path.join(truth_dir, "tensors.csv"), newline="") as f:
        tensors = list(csv.DictReader(f))
    with open(os.path.join(truth_dir, "kernels.csv"), newline="") as f:
        kernels = list(csv.DictReader(f))
    events = parse_trace_text(trace_text)
    problems = []

    allocs = [e for e in events if e["event"] in ALLOCS and e.get("tensor_id", -1) >= 0]
    apis = sorted({e.get("api") for e in allocs})
    if apis != [alloc_api]:
        problems.append(f"tensors created by {apis}, expected only {alloc_api}")
    if [e["tensor_id"] for e in allocs] != list(range(len(tensors))):
        problems.append(f"{len(allocs)} tensors traced (ids {[e['tensor_id'] for e in allocs][:8]}...), truth has {len(tensors)}")
    for e, t in zip(allocs, tensors):
        if e.get("bytes") != int(t["bytes"]):
            problems.append(f"tensor {e['tensor_id']}: {e.get('bytes')} bytes traced, truth {t['bytes']}")
        if kind and e.get("kind") != kind:
            problems.append(f"tensor {e['tensor_id']}: kind {e.get('kind')}, expected {kind}")
    failed = [e for e in events if e["event"].startswith("dnntrace_api:") and e.get("result", 0) != 0]
    if failed:
        problems.append(f"{len(failed)} failed calls traced, first {failed[0]}")

    frees = [e for e in events if e["event"] in FREES and e.get("tensor_id", -1) >= 0]
    if sorted({e.get("api") for e in frees}) not in ([], [free_api]):
        problems.append(f"tensors freed by {sorted({e.get('api') for e in frees})}, expected only {free_api}")
    n_local = sum(1 for t in tensors if t["global"] == "0")
    if len(frees) != n_local or len({e["tensor_id"] for e in frees}) != len(frees):
        problems.append(f"{len(frees)} frees of tensors traced, the workload freed each of its {n_local} local tensors once")

    launches = [e for e in events if e["event"] == "dnntrace_api:launch"]
    if sorted({e.get("api") for e in launches}) != [launch_api]:
        problems.append(f"launches through {sorted({e.get('api') for e in launches})}, expected only {launch_api}")
    if [e.get("name") for e in launches] != [k["name"] for k in kernels]:
        problems.append(f"{len(launches)} launches traced, truth has {len(kernels)} kernels (or names differ)")
    for p in problems[:20]:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
