#!/usr/bin/env python3
"""check_steps.py: steps.csv of the NVTX workload (tests/workloads/
nvtx_steps.c) against what it knows by construction: three `train_step`
start/end ranges; the kernels each one launched (nvtx_kernels.csv's `step`
column, kernels in program order = GPU order = kernels.csv's index); the
live bytes at each kernel's start (the truth's memory.csv); and the ranges'
exact times, read from the trace's own dnntrace_nvtx:start/end events
(babeltrace2 --clock-cycles: the clock's ns, as the analyzer reads them).

  check_steps.py whole TRUTH_DIR REPORT_DIR TRACE_TEXT
      every step: number, name, start_ns, end_ns, first_kernel,
      last_kernel, kernels, peak_bytes
  check_steps.py window TRUTH_DIR REPORT_DIR TRACE_TEXT STEP
      a report of `--range train_step:STEP`: all three steps still listed
      with their times, STEP's kernels renumbered from 0 and the others
      with no kernel of the window

Prints one line per difference; never relaxes a check to pass.
"""
import csv
import re
import sys

STEPS = 3


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def step_times(trace_text):
    """The train_step ranges' [start, end] in ns, in order, from the
    start/end events (paired by id)."""
    line_re = re.compile(r"^\[(\d+)\] .*?dnntrace_nvtx:(start|end): .*?\{ (.*) \}$")
    starts, spans = {}, []
    with open(trace_text) as f:
        for line in f:
            m = line_re.match(line.rstrip("\n"))
            if not m:
                continue
            ts, kind, fields = int(m.group(1)), m.group(2), m.group(3)
            rid = re.search(r"\bid = (\d+)", fields).group(1)
            if kind == "start":
                if 'name = "train_step"' in fields:
                    starts[rid] = ts
            elif rid in starts:
                spans.append((starts.pop(rid), ts))
    return spans


def expected(truth_dir, trace_text, window_step=None):
    kernels = read_csv(f"{truth_dir}/nvtx_kernels.csv")
    live = [int(r["live_bytes"]) for r in read_csv(f"{truth_dir}/memory.csv")]
    spans = step_times(trace_text)
    rows = []
    for number in range(1, STEPS + 1):
        mine = [int(k["index"]) for k in kernels if int(k["step"]) == number]
        start, end = spans[number - 1] if len(spans) >= number else ("?", "?")
        row = {"step": str(number), "name": "train_step",
               "start_ns": str(start), "end_ns": str(end)}
        if window_step is None or window_step == number:
            base = mine[0] if window_step else 0
            row.update(first_kernel=str(mine[0] - base),
                       last_kernel=str(mine[-1] - base),
                       kernels=str(len(mine)),
                       peak_bytes=str(max(live[i] for i in mine)))
        else:
            row.update(first_kernel="", last_kernel="", kernels="0",
                       peak_bytes="")
        rows.append(row)
    return rows, len(spans)


def main(argv):
    if len(argv) < 5 or argv[1] not in ("whole", "window"):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    window_step = int(argv[5]) if argv[1] == "window" else None
    want, n_spans = expected(argv[2], argv[4], window_step)
    bad = []
    if n_spans != STEPS:
        bad.append(f"the trace holds {n_spans} train_step start/end pairs, not {STEPS}")
    got = read_csv(f"{argv[3]}/steps.csv")
    if len(got) != len(want):
        bad.append(f"steps.csv has {len(got)} rows, expected {len(want)}")
    for w, g in zip(want, got):
        for column, value in w.items():
            if g.get(column) != value:
                bad.append(f"step {w['step']}: {column} {g.get(column)!r}, expected {value!r}")
    # the window's own kernels (the truth's memory.csv is the whole run's;
    # the window report's live bytes are its own memory.csv's)
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
