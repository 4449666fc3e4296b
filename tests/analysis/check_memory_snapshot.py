#!/usr/bin/env python3
"""check_memory_snapshot.py: checks a report's memory_snapshot.pickle
(dnntrace-analyze) against PyTorch's memory snapshot format, as
torch/cuda/_memory_viz.py and its viewer torch/utils/viz/MemoryViz.js
read it, and against the report and a workload's truth. Python's own
pickle and pickletools only: no torch.

  check_memory_snapshot.py REPORT_DIR TRUTH_DIR DEVICE

The pickle: opcodes pickletools knows, none that runs code (GLOBAL,
REDUCE ...; the memo's MEMOIZE, BINGET, LONG_BINGET are data), integers the viewer reads (LONG1 of at most 8 bytes),
containers filled in batches of at most 1000 (the viewer spreads a batch
onto its stack). The snapshot: {'segments': [...], 'device_traces':
[...]}, device_traces[DEVICE] the trace, the other devices' empty.
Against the truth (tensors.csv: id, name, bytes) and the report
(tensors.csv: addr, stream, free_ns; categories.csv):
  - every tensor: one segment_alloc and one alloc at its address, its
    size, its stream, frames[0] = tensor:<id>:<its name>, the alloc's
    category one of categories.csv's (or unknown);
  - a freed tensor: free_requested, free_completed and segment_free, in
    that order, after its alloc; one never freed: a segment at the end
    (its address and size, one active_allocated block) and no free;
  - events in time order; at no time two live allocations overlap in
    address (a replay of the trace);
  - 'unknown' among the categories when any event has one (the viewer
    fails otherwise);
  - every event an object of its own (the memo shares strings and
    frames lists only: the viewer edits the events).
Prints one line per problem and exits 1 if there is any.
"""
import csv
import os
import pickle
import pickletools
import sys
from collections import defaultdict

problems = []
SAFE = {"PROTO", "FRAME", "EMPTY_DICT", "EMPTY_LIST", "MARK", "SETITEMS",
        "APPENDS", "BININT1", "BININT2", "BININT", "LONG1",
        "SHORT_BINUNICODE", "BINUNICODE", "BINFLOAT", "NONE", "NEWTRUE",
        "NEWFALSE", "STOP", "MEMOIZE", "BINGET", "LONG_BINGET"}


def problem(msg):
    if len(problems) < 50:
        print(msg)
    problems.append(msg)


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def check_opcodes(data):
    marks = []
    depth_items = []
    for opcode, arg, pos in pickletools.genops(data):
        if opcode.name not in SAFE:
            problem(f"opcode {opcode.name} at {pos}")
        if opcode.name == "LONG1" and len(data) > pos + 1 and data[pos + 1] > 8:
            problem(f"LONG1 of {data[pos + 1]} bytes at {pos}")
        if opcode.name == "MARK":
            marks.append(0)
            continue
        if opcode.name in ("APPENDS", "SETITEMS"):
            n = marks.pop() if marks else 0
            limit = 1000 if opcode.name == "APPENDS" else 2000
            if n > limit:
                problem(f"{opcode.name} of {n} items at {pos}")
        if marks:
            # an item on the stack above the innermost mark: containers
            # begun count once, their own contents belong to their mark
            if opcode.name not in ("APPENDS", "SETITEMS", "MEMOIZE", "STOP", "PROTO", "FRAME"):
                marks[-1] += 1


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[6].strip())
        return 2
    report, truth, device = sys.argv[1], sys.argv[2], int(sys.argv[3])
    path = os.path.join(report, "memory_snapshot.pickle")
    with open(path, "rb") as f:
        data = f.read()
    try:
        pickletools.dis(data, out=open(os.devnull, "w"))
        snap = pickle.loads(data)
    except Exception as err:  # any failure to read is the finding
        print(f"{path}: not a valid pickle: {err}")
        return 1
    check_opcodes(data)
    if not isinstance(snap, dict) or set(snap) != {"segments", "device_traces"}:
        print(f"top level: {type(snap).__name__} {sorted(snap) if isinstance(snap, dict) else ''}")
        return 1
    traces = snap["device_traces"]
    if len(traces) != device + 1 or any(traces[d] for d in range(device)):
        problem(f"device_traces: {[len(t) for t in traces]}, want device {device} only")
    trace = traces[device] if len(traces) > device else []

    truth_tensors = {int(r["id"]): r for r in rows(os.path.join(truth, "tensors.csv"))}
    report_tensors = {int(r["id"]): r for r in rows(os.path.join(report, "tensors.csv"))}
    categories = {r["category"] for r in rows(os.path.join(report, "categories.csv"))}
    categories = {"unknown" if c == "Others" else c for c in categories} | {"unknown"}

    # the viewer edits each event it reads (annotate_snapshot): no two
    # events may be one object (frames lists may: it only reads those)
    if len({id(e) for e in trace}) != len(trace):
        problem("device trace: an event object appears twice")

    by_tensor = defaultdict(list)
    last_time = -1
    for i, e in enumerate(trace):
        for key in ("action", "addr", "size", "stream", "time_us", "frames"):
            if key not in e:
                problem(f"event {i}: no {key}")
                break
        else:
            if e["time_us"] < last_time:
                problem(f"event {i}: time {e['time_us']} before {last_time}")
            last_time = e["time_us"]
            f0 = e["frames"][0] if e["frames"] else {}
            if f0.get("filename") != "tensor":
                problem(f"event {i}: first frame {f0}")
                continue
            by_tensor[f0["line"]].append((i, e))

    for tid, t in truth_tensors.items():
        r = report_tensors.get(tid)
        if r is None:
            problem(f"tensor {tid}: not in the report's tensors.csv")
            continue
        addr, stream = int(r["addr"], 16), int(r["stream"], 16)
        events = by_tensor.get(tid, [])
        actions = [e["action"] for _, e in events]
        freed = r["free_ns"] != ""
        want = ["segment_alloc", "alloc"] + (
            ["free_requested", "free_completed", "segment_free"] if freed else [])
        if actions != want:
            problem(f"tensor {tid} ({t['name']}): {actions}, want {want}")
        for _, e in events:
            if (e["addr"], e["size"], e["stream"]) != (addr, int(t["bytes"]), stream):
                problem(f"tensor {tid}: {e['action']} addr {e['addr']:#x} size {e['size']} "
                        f"stream {e['stream']:#x}, want {addr:#x} {t['bytes']} {stream:#x}")
            if e["frames"][0]["name"] != t["name"]:
                problem(f"tensor {tid}: named {e['frames'][0]['name']!r}, truth {t['name']!r}")
            if e["action"] == "alloc" and e.get("category") not in categories:
                problem(f"tensor {tid}: category {e.get('category')!r} not in {sorted(categories)}")
        segs = [s for s in snap["segments"] if s.get("address") == addr]
        if not freed:
            if len(segs) != 1 or segs[0].get("device") != device or \
                    segs[0].get("total_size") != int(t["bytes"]) or \
                    [b.get("state") for b in segs[0].get("blocks", [])] != ["active_allocated"] or \
                    segs[0]["blocks"][0].get("size") != int(t["bytes"]):
                problem(f"tensor {tid}: live at the end, segments {segs}")
    if len(snap["segments"]) != sum(r["free_ns"] == "" for r in report_tensors.values()):
        problem(f"{len(snap['segments'])} segments for "
                f"{sum(r['free_ns'] == '' for r in report_tensors.values())} tensors live at the end")

    live = {}                                  # addr -> end
    for i, e in enumerate(trace):
        if e.get("action") == "alloc":
            for a, end in live.items():
                if a < e["addr"] + e["size"] and e["addr"] < end:
                    problem(f"event {i}: alloc at {e['addr']:#x} overlaps the live one at {a:#x}")
                    break
            live[e["addr"]] = e["addr"] + e["size"]
        elif e.get("action") == "free_completed":
            if live.pop(e["addr"], None) is None:
                problem(f"event {i}: free_completed at {e['addr']:#x}, nothing live there")

    cats = {e["category"] for e in trace if "category" in e}
    if cats and "unknown" not in cats:
        problem("categories without 'unknown': the viewer's annotate_snapshot fails")

    if problems:
        print(f"{len(problems)} problems")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
