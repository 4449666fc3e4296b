#!/usr/bin/env python3
"""check_graph_launch.py: the checks of a CUDA graph workload
(tests/workloads/graph_steps.c) that compare.py cannot make alone.

  check_graph_launch.py trace TRACE_TEXT TRUTH_DIR
      one dnntrace_api:graph_launch per graph launch of the truth (TRUTH_DIR/op:
      the ops whose api is a graph launch), in order, with its api label and
      result 0; every GPU kernel linked (external correlation) to its call_id,
      exactly that launch's kernels in the truth's order; every other GPU
      kernel linked to a dnntrace_api:launch; no dnntrace_api:launch for a
      kernel of a graph that ran. A launch made while its stream captured
      adds a node and runs nothing: it is traced as the call it is (a
      dnntrace_api:launch with its tensors) and must link to no kernel.
  check_graph_launch.py report TRUTH_DIR REPORT_DIR
      compare.py's `truth` check, where the Name line of a graph kernel in
      kernels.config is checked as the analyzer's launch format, "name(the
      names of the tensors its node points into, in order)" (compare.py
      expects "api(name)", a library call's); for a graph op of several
      kernels the tensor names as a set (the truth's op files keep inputs
      first, not the order of use).

TRACE_TEXT is `babeltrace2 TRACE_DIR` output. Prints one line per
difference; never relaxes a check to pass.
"""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

GRAPH_APIS = {"cudaGraphLaunch", "cudaGraphLaunch_ptsz", "cuGraphLaunch", "cuGraphLaunch_ptsz"}


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def graph_ops(truth_dir):
    """[(api, [kernel names])] of the truth's graph launches, in order."""
    ops = read_rows(os.path.join(truth_dir, "op", "kernels.csv"))
    return [(op["api"], op["name"].split("; ")) for op in ops if op["api"] in GRAPH_APIS]


def check_trace(trace_text, truth_dir):
    problems, captured = [], []
    events = compare.parse_trace_text(trace_text)
    kernels_truth = read_rows(os.path.join(truth_dir, "kernels.csv"))
    graph_kernel_names = {k["name"] for k in kernels_truth if k["api"] in GRAPH_APIS}
    ordinary = [k["name"] for k in kernels_truth if k["api"] not in GRAPH_APIS]

    launches = [e for e in events if e["event"] == "dnntrace_api:graph_launch"]
    expected = graph_ops(truth_dir)
    got = [(e["api"], e["result"]) for e in launches]
    if got != [(api, 0) for api, _ in expected]:
        problems.append(f"graph launches traced {got}, expected {[(api, 0) for api, _ in expected]}")

    call_of = {e["correlation_id"]: e["call_id"] for e in events
               if e["event"] == "dnntrace_gpu:external_correlation"}
    gpu = sorted((e for e in events if e["event"] == "dnntrace_gpu:kernel"),
                 key=lambda e: (e["start"], e["end"], e["correlation_id"]))
    by_call = {}
    for k in gpu:
        by_call.setdefault(call_of.get(k["correlation_id"]), []).append(k["name"])
    for event, (api, names) in zip(launches, expected):
        have = by_call.get(event["call_id"], [])
        if have != names:
            problems.append(f"graph launch call {event['call_id']} ({api}): kernels {have}, expected {names}")

    kernel_launches = [e for e in events if e["event"] == "dnntrace_api:launch"]
    launched = [e for e in kernel_launches if e["call_id"] in by_call]
    if [by_call[e["call_id"]] for e in launched] != [[e["name"]] for e in launched] or \
            [e["name"] for e in launched] != ordinary:
        problems.append(f"ordinary launches with their kernels {[e['name'] for e in launched]}, expected {ordinary}")
    graph_call_ids = {e["call_id"] for e in launches}
    unlinked = [k["name"] for k in gpu if call_of.get(k["correlation_id"]) not in
                graph_call_ids | {e["call_id"] for e in launched}]
    if unlinked:
        problems.append(f"GPU kernels linked to no traced call: {unlinked}")
    for e in kernel_launches:
        if e["name"] not in graph_kernel_names:
            if e["call_id"] not in by_call:
                problems.append(f"launch call {e['call_id']} ({e['name']}) ran no kernel")
        elif e["call_id"] in by_call:
            problems.append(f"graph kernel {e['name']} traced as a launch that ran (call {e['call_id']})")
        else:
            captured.append(e["name"])
    if not captured:
        problems.append("the launches made during stream capture are missing from the trace")
    for line in problems:
        print(line)
    return 1 if problems else 0


NAME_PROBLEM = re.compile(r"kernel (\d+): Name '(.*)', expected '(.*)'$")


def check_report(truth_dir, report_dir):
    kernels = read_rows(os.path.join(truth_dir, "kernels.csv"))
    graph_kernels = {int(k["index"]): k for k in kernels if k["api"] in GRAPH_APIS}
    replaced = set()
    original = compare.problem

    def problem(check, text):
        m = NAME_PROBLEM.match(text)
        if check == "kernels.config" and m and int(m[1]) in graph_kernels:
            replaced.add(int(m[1]))
            return
        original(check, text)

    compare.problem = problem
    compare.compare_truth(truth_dir, report_dir)
    compare.problem = original
    listed = compare.parse_kernels_config(os.path.join(report_dir, "kernels.config"))
    names = {r["id"]: r["name"] for r in read_rows(os.path.join(truth_dir, "tensors.csv"))}
    touched = {}
    for r in read_rows(os.path.join(truth_dir, "kernel_tensors.csv")):
        seen = touched.setdefault(int(r["index"]), [])
        if names[r["tensor"]] not in seen:
            seen.append(names[r["tensor"]])
    # The truth's op files list an op's tensors inputs first, not in the
    # order of use: a graph op's (several kernels') names are compared as
    # the same set; a kernel's in order.
    for i, want in graph_kernels.items():
        tensors = touched.get(i, [])
        name = f"{want['name']}({', '.join(tensors)})"
        have = listed[i]["name"] if i < len(listed) else None
        if have != name and "; " in want["name"] and have is not None:
            m = re.fullmatch(re.escape(want["name"]) + r"\((.*)\)", have)
            if m and sorted(m[1].split(", ") if m[1] else []) == sorted(tensors):
                continue
        if have != name:
            compare.problem("kernels.config", f"graph kernel {i}: Name {have!r}, expected {name!r}")
    if compare.problems:
        print(f"{len(compare.problems)} differences")
        return 1
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "trace":
        return check_trace(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "report":
        return check_report(argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
