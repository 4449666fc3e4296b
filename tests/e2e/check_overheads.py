#!/usr/bin/env python3
"""check_overheads.py TRUTH_DIR REPORT_DIR: overheads.csv, gpu_time.csv and
the summary's GPU time section of a report of tests/workloads/overhead_ops.c
against the ground truth it wrote by construction.

  overheads.csv (ops_truth.csv): exact header; one row per op with its
    count; a Tn built from a host sleep of X ms has its mean in
    [X, 1.5 X + 10] ms (a sleep lasts at least X, however loaded the
    machine; the margin absorbs a loaded machine), t1 only where the truth
    has T1 samples; t5 "0" exactly 0; t4 "launch": launch calls, mean in
    (0, 5] ms; an empty truth column must be empty; std columns >= 0.
  gpu_time.csv (gpu_truth.csv): exact header; exactly these op and kernel
    rows, counts and device times to the ns; share = device time / busy.
  summary.txt (gpu_summary.csv): busy exact, overlap exact, idle = host +
    other, span = busy + idle, the number of launches.

Prints one line per difference and exits 1 if there is any.
"""
import csv
import os
import re
import sys

OVERHEADS_HEADER = ("op,count,t1_mean_us,t1_std_us,t2_mean_us,t2_std_us,"
                    "t3_mean_us,t3_std_us,t4_mean_us,t4_std_us,t5_mean_us,"
                    "t5_std_us")
GPU_HEADER = "kind,name,count,device_us,share"
problems = []


def problem(msg):
    print(msg)
    problems.append(msg)


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def header(path):
    with open(path, encoding="utf-8") as f:
        return f.readline().rstrip("\n")


def check_overheads(truth, report):
    path = os.path.join(report, "overheads.csv")
    if header(path) != OVERHEADS_HEADER:
        problem(f"overheads.csv header: {header(path)!r}")
    rows = {r["op"]: r for r in read(path)}
    want = read(os.path.join(truth, "ops_truth.csv"))
    if sorted(rows) != sorted(w["op"] for w in want):
        problem(f"overheads.csv ops {sorted(rows)}, truth "
                f"{sorted(w['op'] for w in want)}")
    for w in want:
        op = w["op"]
        r = rows.get(op)
        if r is None:
            continue
        if int(r["count"]) != int(w["count"]):
            problem(f"{op}: count {r['count']}, truth {w['count']}")
        for t in ("t1", "t2", "t3", "t4", "t5"):
            mean, std = r[f"{t}_mean_us"], r[f"{t}_std_us"]
            expect = w[f"{t}_ms"] if t != "t4" else w["t4"]
            if t == "t1" and int(w["t1_n"]) == 0:
                expect = ""
            if expect == "":
                if mean or std:
                    problem(f"{op}: {t} should be empty, is {mean}/{std}")
                continue
            if not mean or not std:
                problem(f"{op}: {t} missing")
                continue
            mean, std = float(mean) / 1000.0, float(std)
            if std < 0:
                problem(f"{op}: {t} std {std} < 0")
            if expect == "launch":
                if not 0 < mean <= 5:
                    problem(f"{op}: {t} (launch calls) mean {mean} ms "
                            f"not in (0, 5]")
            elif float(expect) == 0:
                if mean != 0 or std != 0:
                    problem(f"{op}: {t} should be exactly 0, is {mean} ms")
            else:
                x = float(expect)
                if not x <= mean <= 1.5 * x + 10:
                    problem(f"{op}: {t} mean {mean:.3f} ms not in "
                            f"[{x}, {1.5 * x + 10}] (sleep {x} ms)")


def check_gpu(truth, report):
    path = os.path.join(report, "gpu_time.csv")
    if header(path) != GPU_HEADER:
        problem(f"gpu_time.csv header: {header(path)!r}")
    got = {(r["kind"], r["name"]): r for r in read(path)}
    want = read(os.path.join(truth, "gpu_truth.csv"))
    if sorted(got) != sorted((w["kind"], w["name"]) for w in want):
        problem(f"gpu_time.csv rows {sorted(got)}, truth "
                f"{sorted((w['kind'], w['name']) for w in want)}")
    busy_ns = int(read(os.path.join(truth, "gpu_summary.csv"))[0]["busy_ns"])
    for w in want:
        r = got.get((w["kind"], w["name"]))
        if r is None:
            continue
        if int(r["count"]) != int(w["count"]):
            problem(f"{w['name']!r}: count {r['count']}, truth {w['count']}")
        if round(float(r["device_us"]) * 1000) != int(w["device_ns"]):
            problem(f"{w['name']!r}: {r['device_us']} us, truth "
                    f"{w['device_ns']} ns")
        share = int(w["device_ns"]) / busy_ns
        if abs(float(r["share"]) - share) > 1e-6:
            problem(f"{w['name']!r}: share {r['share']}, truth {share:.6f}")


def us(text, key):
    m = re.search(key + r": ([0-9.]+) us", text)
    if not m:
        problem(f"summary: no '{key}: N us' line")
        return None
    return round(float(m.group(1)) * 1000)


def check_summary(truth, report):
    with open(os.path.join(report, "summary.txt"), encoding="utf-8") as f:
        text = f.read()
    w = read(os.path.join(truth, "gpu_summary.csv"))[0]
    busy, span = us(text, "GPU busy"), us(text, "GPU span")
    overlap = us(text, "stream overlap")
    if busy is not None and busy != int(w["busy_ns"]):
        problem(f"summary: busy {busy} ns, truth {w['busy_ns']}")
    if overlap is not None and overlap != int(w["overlap_ns"]):
        problem(f"summary: overlap {overlap} ns, truth {w['overlap_ns']}")
    m = re.search(r"GPU idle: ([0-9.]+) us \([0-9.]+%\): waiting for the host "
                  r"([0-9.]+) us, waiting on other work ([0-9.]+) us", text)
    if not m:
        problem("summary: no GPU idle line")
    else:
        idle, host, other = (round(float(v) * 1000) for v in m.groups())
        if abs(idle - host - other) > 1:
            problem(f"summary: idle {idle} != host {host} + other {other}")
        if span is not None and busy is not None and abs(span - busy - idle) > 1:
            problem(f"summary: span {span} != busy {busy} + idle {idle}")
    m = re.search(r"kernel launch delay: mean (-?[0-9.]+) us, max (-?[0-9.]+) "
                  r"us \(([0-9]+) launches", text)
    if not m:
        problem("summary: no kernel launch delay line")
    elif int(m.group(3)) != int(w["launches"]):
        problem(f"summary: {m.group(3)} launches, truth {w['launches']}")
    elif float(m.group(1)) > float(m.group(2)):
        problem("summary: mean launch delay above its max")


def main():
    if len(sys.argv) != 3:
        print("usage: check_overheads.py TRUTH_DIR REPORT_DIR")
        return 2
    truth, report = sys.argv[1:]
    check_overheads(truth, report)
    check_gpu(truth, report)
    check_summary(truth, report)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
