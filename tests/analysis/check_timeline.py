#!/usr/bin/env python3
"""check_timeline.py: checks a timeline.json (dnntrace-analyze) against the
rules of Chrome's trace-event format and, given a workload's ground truth,
against what the program did.

  check_timeline.py TIMELINE [TRUTH_DIR]

Format rules (always):
  - json.load succeeds (strict: no NaN/Infinity), top level has traceEvents;
  - every event has ph, pid, ts (a number >= 0); every track event a tid;
  - X: dur is a number >= 0;
  - B/E: per (pid, tid), ts never decreases and every B has its E (an E
    never comes without an open B);
  - async b/e: per (cat, id) one b then one e, e.ts >= b.ts, same name;
  - flows: every s has exactly one f with its id and vice versa, the f has
    bp "e", and each s/f lies on a track that has a slice (X) containing
    its ts (not s.ts <= f.ts: a synchronous copy's call, stamped when it
    returns, ends after its GPU copy started).
With TRUTH_DIR (kernels.csv index,name,duration_ns[,stream]; tensors.csv
id,...,bytes; memory.csv index,...,active_bytes, as the workloads write):
  - the GPU kernel slices (cat kernel), ordered by start, are the truth's
    kernels: same names, same durations within the 1 us of rounding each
    end to whole us (timeline_json.c); when kernels.csv has a stream column,
    kernels of one truth stream share one GPU track and different truth
    streams use different tracks;
  - every GPU kernel slice has one incoming flow;
  - the tensor lifetimes (b/e, cat tensor) are exactly the truth's tensors,
    with their bytes;
  - at each kernel's start an "active bytes" counter holds the truth's
    active_bytes of that kernel.

Prints one line per problem and exits 1 if there is any.
"""
import csv
import json
import math
import os
import sys
from collections import defaultdict

problems = []


def problem(msg):
    if len(problems) < 50:
        print(msg)
    problems.append(msg)


def reject_constant(name):
    raise ValueError(f"non-standard JSON constant {name}")


def ns(us):
    return round(us * 1000)


def check_rules(events):
    slices = defaultdict(list)           # (pid, tid) -> [(ts, end)]
    be_last = {}
    be_open = defaultdict(list)
    asyncs = {}
    flows = defaultdict(list)
    for i, e in enumerate(events):
        where = f"event {i}"
        if not isinstance(e, dict) or "ph" not in e:
            problem(f"{where}: no ph")
            continue
        ph = e["ph"]
        if "pid" not in e or "ts" not in e:
            problem(f"{where} ({ph}): no pid or ts")
            continue
        ts = e["ts"]
        if not isinstance(ts, (int, float)) or isinstance(ts, bool) or ts < 0 \
                or not math.isfinite(ts):
            problem(f"{where} ({ph}): bad ts {ts!r}")
            continue
        if ph in ("X", "B", "E", "s", "f") and "tid" not in e:
            problem(f"{where} ({ph}): no tid")
            continue
        track = (e["pid"], e.get("tid"))
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                problem(f"{where}: X with bad dur {dur!r}")
                continue
            if not isinstance(e.get("name"), str):
                problem(f"{where}: X without a name")
            slices[track].append((ts, ts + dur))
        elif ph in ("B", "E"):
            if track in be_last and ts < be_last[track]:
                problem(f"{where}: {ph} at {ts} before {be_last[track]} on {track}")
            be_last[track] = ts
            if ph == "B":
                be_open[track].append(e.get("name"))
            elif not be_open[track]:
                problem(f"{where}: E without a B on {track}")
            else:
                be_open[track].pop()
        elif ph in ("b", "e"):
            key = (e.get("cat"), e.get("id"))
            if key[1] is None:
                problem(f"{where}: async {ph} without id")
                continue
            state = asyncs.get(key)
            if ph == "b":
                if state is not None:
                    problem(f"{where}: async id {key} begun twice")
                asyncs[key] = [ts, None, e.get("name")]
            elif state is None or state[1] is not None:
                problem(f"{where}: async e of {key} without its b")
            else:
                state[1] = ts
                if ts < state[0]:
                    problem(f"{where}: async {key} ends before it begins")
                if e.get("name") != state[2]:
                    problem(f"{where}: async {key} ends with another name")
        elif ph in ("s", "f"):
            flows[e.get("id")].append((ph, ts, track, e.get("bp")))
    for track, names in be_open.items():
        if names:
            problem(f"B without E on {track}: {names[:3]}")
    for key, state in asyncs.items():
        if state[1] is None:
            problem(f"async {key} never ends")
    for track in slices:
        slices[track].sort()

    def inside(track, ts):
        for start, end in slices.get(track, ()):
            if start > ts:
                break
            if start <= ts <= end:
                return True
        return False

    incoming = defaultdict(int)
    for fid, points in flows.items():
        kinds = sorted(p[0] for p in points)
        if kinds != ["f", "s"]:
            problem(f"flow {fid}: {kinds} (want one s and one f)")
            continue
        s = next(p for p in points if p[0] == "s")
        f = next(p for p in points if p[0] == "f")
        if f[3] != "e":
            problem(f"flow {fid}: f without bp e")
        if not inside(s[2], s[1]):
            problem(f"flow {fid}: its s at {s[1]} is in no slice of {s[2]}")
        if not inside(f[2], f[1]):
            problem(f"flow {fid}: its f at {f[1]} is in no slice of {f[2]}")
        incoming[(f[2], ns(f[1]))] += 1
    return incoming


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def check_truth(events, truth, incoming):
    kernels = read_csv(os.path.join(truth, "kernels.csv"))
    gpu = [e for e in events if e.get("ph") == "X" and e.get("cat") == "kernel"]
    gpu.sort(key=lambda e: (e["ts"], e["ts"] + e["dur"]))
    if len(gpu) != len(kernels):
        problem(f"{len(gpu)} GPU kernel slices, truth has {len(kernels)} kernels")
    track_of_stream = {}
    stream_of_track = {}
    for k, (row, e) in enumerate(zip(kernels, gpu)):
        if e["name"] != row["name"]:
            problem(f"kernel {k}: slice {e['name']!r}, truth {row['name']!r}")
        if not isinstance(e["dur"], int) or not isinstance(e["ts"], int):
            problem(f"kernel {k}: ts {e['ts']!r} dur {e['dur']!r} not whole us")
        if abs(ns(e["dur"]) - int(row["duration_ns"])) >= 1000:
            problem(f"kernel {k}: {ns(e['dur'])} ns, truth {row['duration_ns']}")
        track = (e["pid"], e["tid"])
        if row.get("stream"):
            s = row["stream"]
            if track_of_stream.setdefault(s, track) != track or \
                    stream_of_track.setdefault(track, s) != s:
                problem(f"kernel {k}: on track {track}, truth stream {s} "
                        f"is on {track_of_stream[s]}")
        if incoming.get((track, ns(e["ts"])), 0) < 1:
            problem(f"kernel {k} ({e['name']!r}): no flow arrow comes in")

    tensors = {int(r["id"]): int(r["bytes"])
               for r in read_csv(os.path.join(truth, "tensors.csv"))}
    seen = {}
    for e in events:
        if e.get("cat") == "tensor" and e.get("ph") == "b":
            tid = e["args"]["tensor"]
            if tid in seen:
                problem(f"tensor {tid}: two lifetimes")
            seen[tid] = e["args"]["bytes"]
    if seen != tensors:
        problem(f"tensor lifetimes {sorted(seen.items())[:8]} differ from "
                f"the truth {sorted(tensors.items())[:8]}")

    memory = os.path.join(truth, "memory.csv")
    if os.path.exists(memory):
        active = defaultdict(set)
        for e in events:
            if e.get("ph") == "C" and e.get("name", "").startswith("active bytes"):
                active[ns(e["ts"])].add(e["args"]["bytes"])
        for k, (row, e) in enumerate(zip(read_csv(memory), gpu)):
            want = int(row["active_bytes"])
            if want not in active.get(ns(e["ts"]), ()):
                problem(f"kernel {k}: active bytes at its start "
                        f"{sorted(active.get(ns(e['ts']), ()))}, truth {want}")


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip())
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            doc = json.load(f, parse_constant=reject_constant)
    except (OSError, ValueError) as err:
        print(f"{sys.argv[1]}: not valid JSON: {err}")
        return 1
    events = doc.get("traceEvents") if isinstance(doc, dict) else None
    if not isinstance(events, list) or not events:
        print("no traceEvents list")
        return 1
    incoming = check_rules(events)
    if len(sys.argv) == 3:
        check_truth(events, sys.argv[2], incoming)
    if problems:
        print(f"{len(problems)} problems")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
