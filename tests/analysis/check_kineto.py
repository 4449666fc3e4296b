#!/usr/bin/env python3
"""check_kineto.py: checks that a timeline.json (dnntrace-analyze) follows
the PyTorch profiler's (Kineto's) conventions that Holistic Trace Analysis
relies on (hta/common/trace_file.py, trace_parser.py, trace.py: read from
its source, HTA itself is not needed here), against a workload's truth.

  check_kineto.py TIMELINE TRUTH_DIR [STEPS]

HTA's side (always):
  - the text holds '"rank":' + whitespace + digits (HTA's own pattern,
    line by line), equal to distributedInfo.rank; schemaVersion is there;
    deviceProperties lists every GPU the slices use (by id);
  - HTA keeps only events with both "cat" and "dur": every slice (X) has
    them, with a cat from Kineto's set, and ts/dur are integers (HTA then
    leaves times as they are instead of rounding starts up and ends down);
  - GPU slices (kernel, gpu_memcpy, gpu_memset) carry args.stream (an
    integer > 0: HTA's test for GPU work), args.device (their pid, as
    Kineto), args.correlation and "External id"; host slices have no
    numeric stream (HTA would count them as GPU work);
  - each GPU slice's correlation is that of exactly one host call
    (cuda_runtime / cuda_driver, or cpu_op for a library's own kernels,
    whose launch the tracer does not see) with the same External id;
  - copies are named "Memcpy XtoY (A -> B)", sets "Memset (Device)", both
    with bytes and "memory bandwidth (GB/s)" = bytes / ns;
  - ProfilerStep#1..STEPS (cat user_annotation), consecutive, when STEPS
    is given; none otherwise;
  - processes and threads are named, the traced process for its program
    (LTTng's procname), not "process <pid>"; no name is a bare "tensor".
Against TRUTH_DIR (kernels.csv, tensors.csv as the workloads write them):
  - the kernel slices are the truth's kernels, by name, in start order;
  - every truth tensor has one lifetime (async b/e, cat tensor) named for
    it (the truth's name), and its allocation call is a slice (dur >= 0,
    zero-length calls included).

Prints one line per problem and exits 1 if there is any.
"""
import csv
import json
import os
import re
import sys
from collections import Counter, defaultdict

GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}
HOST_CATS = {"cuda_runtime", "cuda_driver", "cpu_op", "user_annotation"}
COPY_NAME = re.compile(r"^Memcpy (HtoD|DtoH|HtoA|AtoH|AtoA|AtoD|DtoA|DtoD|HtoH|PtoP|Unknown)"
                       r" \((\w[\w ]*) -> (\w[\w ]*)\)$")

problems = []


def problem(msg):
    if len(problems) < 50:
        print(msg)
    problems.append(msg)


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def check_header(path, doc):
    rank_re = re.compile(r'"rank":\s+(\d+)')      # HTA's, trace_file.py
    found = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = rank_re.search(line)
            if m:
                found = int(m.group(1))
                break
    info = doc.get("distributedInfo")
    if found is None:
        problem("HTA's rank pattern finds no rank")
    elif not isinstance(info, dict) or info.get("rank") != found:
        problem(f"distributedInfo {info!r} disagrees with the rank HTA finds ({found})")
    if doc.get("schemaVersion") is None:
        problem("no schemaVersion")
    props = doc.get("deviceProperties")
    if not isinstance(props, list):
        problem("no deviceProperties list")
        return set()
    return {p.get("id") for p in props if isinstance(p, dict)}


def check(events, devices, truth, steps):
    slices = [e for e in events if e.get("ph") == "X"]
    host_by_corr = defaultdict(list)
    gpu = []
    for e in slices:
        where = f"slice {e.get('name')!r} at {e.get('ts')}"
        cat = e.get("cat")
        if cat is None or "dur" not in e:
            problem(f"{where}: no cat or dur (HTA drops it)")
            continue
        if not isinstance(e["ts"], int) or not isinstance(e["dur"], int) or e["dur"] < 0:
            problem(f"{where}: ts {e['ts']!r} / dur {e['dur']!r} not whole us >= 0")
        if e.get("name") in (None, "", "tensor"):
            problem(f"{where}: no proper name")
        args = e.get("args", {})
        if cat in GPU_CATS:
            gpu.append(e)
            stream, device = args.get("stream"), args.get("device")
            if not isinstance(stream, int) or stream <= 0:
                problem(f"{where}: GPU slice with stream {stream!r}")
            if device != e["pid"] or device not in devices:
                problem(f"{where}: device {device!r}, pid {e['pid']}, "
                        f"deviceProperties {sorted(devices)}")
            corr = args.get("correlation")
            if not isinstance(corr, int) or corr <= 0 or args.get("External id") != corr:
                problem(f"{where}: correlation {corr!r}, External id "
                        f"{args.get('External id')!r}")
            if cat != "kernel":
                want = COPY_NAME if cat == "gpu_memcpy" else re.compile(r"^Memset \(Device\)$")
                if not want.match(e["name"]):
                    problem(f"{where}: not a Kineto {cat} name")
                bw = args.get("memory bandwidth (GB/s)")
                nbytes = args.get("bytes")
                if not isinstance(nbytes, int) or not isinstance(bw, (int, float)):
                    problem(f"{where}: bytes {nbytes!r}, bandwidth {bw!r}")
        elif cat in HOST_CATS:
            stream = args.get("stream")
            if isinstance(stream, (int, float)):
                problem(f"{where}: host slice with a numeric stream {stream!r}")
            if cat != "user_annotation" and "correlation" in args:
                host_by_corr[args["correlation"]].append(e)
        else:
            problem(f"{where}: cat {cat!r} is not Kineto's")

    for e in gpu:
        corr = e["args"].get("correlation")
        calls = host_by_corr.get(corr, [])
        if len(calls) != 1:
            problem(f"GPU slice {e['name']!r}: {len(calls)} host calls with correlation {corr}")
        elif calls[0]["args"].get("External id") != e["args"].get("External id"):
            problem(f"GPU slice {e['name']!r}: its call's External id differs")

    names = [e["name"] for e in slices if e.get("name", "").startswith("ProfilerStep")]
    want = [f"ProfilerStep#{n}" for n in range(1, steps + 1)]
    if sorted(names, key=lambda n: int(n.split("#")[1])) != want:
        problem(f"steps {names}, want {want}")
    for e in slices:
        if e["name"].startswith("ProfilerStep") and e.get("cat") != "user_annotation":
            problem(f"{e['name']}: cat {e.get('cat')!r}")

    meta = [e for e in events if e.get("ph") == "M"]
    named_pids = {e["pid"] for e in meta if e.get("name") == "process_name"}
    host_pids = {e["pid"] for e in slices if e.get("cat") in HOST_CATS}
    for e in meta:
        if e.get("name") == "process_name" and e["pid"] in host_pids and \
                e["args"]["name"] == f"process {e['pid']}":
            problem(f"process {e['pid']} is not named for its program")
    named_tracks = {(e["pid"], e.get("tid")) for e in meta if e.get("name") == "thread_name"}
    for e in slices:
        if e["pid"] not in named_pids:
            problem(f"process {e['pid']} has no name")
            named_pids.add(e["pid"])
        if (e["pid"], e["tid"]) not in named_tracks:
            problem(f"track {(e['pid'], e['tid'])} has no name")
            named_tracks.add((e["pid"], e["tid"]))

    # against the truth
    kernels = rows(os.path.join(truth, "kernels.csv"))
    got = [e["name"] for e in sorted((e for e in gpu if e["cat"] == "kernel"),
                                     key=lambda e: (e["ts"], e["ts"] + e["dur"]))]
    if got != [k["name"] for k in kernels]:
        problem(f"kernels {got[:5]}... ({len(got)}), truth "
                f"{[k['name'] for k in kernels][:5]}... ({len(kernels)})")
    tensors = {int(r["id"]): r["name"] for r in rows(os.path.join(truth, "tensors.csv"))}
    lifetimes = defaultdict(list)
    for e in events:
        if e.get("cat") == "tensor" and e.get("ph") in ("b", "e"):
            lifetimes[e["id"]].append(e)
    by_tensor = {}
    for pair in lifetimes.values():
        b = [e for e in pair if e["ph"] == "b"]
        if len(pair) != 2 or len(b) != 1 or pair[0]["name"] != pair[1]["name"]:
            problem(f"tensor lifetime {pair[0].get('id')}: {len(pair)} events")
            continue
        by_tensor[b[0]["args"]["tensor"]] = b[0]["name"]
    if by_tensor != tensors:
        diff = sorted(set(by_tensor.items()) ^ set(tensors.items()))[:6]
        problem(f"tensor lifetimes differ from the truth's names: {diff}")
    allocs = Counter(e["args"]["tensor"] for e in slices
                     if e.get("cat") in ("cuda_runtime", "cuda_driver")
                     and "tensor" in e.get("args", {}) and "device" in e["args"]
                     and "Free" not in e["name"] and "free" not in e["name"])
    missing = [t for t in tensors if allocs.get(t, 0) < 1]
    if missing:
        problem(f"tensors without an allocation slice: {missing[:8]}")


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[5].strip())
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as err:
        print(f"{sys.argv[1]}: not valid JSON: {err}")
        return 1
    events = doc.get("traceEvents") if isinstance(doc, dict) else None
    if not isinstance(events, list) or not events:
        print("no traceEvents list")
        return 1
    devices = check_header(sys.argv[1], doc)
    check(events, devices, sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else 0)
    if problems:
        print(f"{len(problems)} problems")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
