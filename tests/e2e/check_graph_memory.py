#!/usr/bin/env python3
"""check_graph_memory.py: the analysis of tests/nvcc/nv_graph_memory.cu
against the program's ground truth (TRUTH_DIR/expected, see the program).

  check_graph_memory.py TRUTH_DIR REPORT_DIR

Checks, from tensors.csv, kernels.csv and swap.csv (kernel granularity):
every graph allocation (by address) has exactly the expected number of
lifetimes, each a tensor of its own, of the allocation's size, and
lifetimes of one allocation never overlap; the kernels, in GPU order, have
the expected names and touch exactly the expected tensors (x, or the K-th
lifetime of an allocation, lifetimes ordered by allocation time); every
lifetime is allocated before its first kernel starts and freed after its
last kernel ends; no swap.csv period of a tensor spans a kernel that
touches it. Prints one line per difference, exits 1 if any; never relaxes
a check to pass.
"""
import csv
import os
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main(truth_dir, report):
    problems = []
    x_addr, counts, want_kernels = None, {}, []
    with open(os.path.join(truth_dir, "expected")) as f:
        for line in f:
            word = line.split()
            if word[0] == "x":
                x_addr = int(word[1], 16)
            elif word[0] == "lifetimes":
                counts[int(word[1], 16)] = int(word[2])
            elif word[0] == "kernel":
                want_kernels.append((word[1], sorted(word[2:])))
    tensors = rows(os.path.join(report, "tensors.csv"))
    symbol, by_addr = {}, {}
    for t in tensors:
        addr = int(t["addr"], 16)
        if addr == x_addr:
            symbol[t["id"]] = "x"
        by_addr.setdefault(addr, []).append(t)
    for addr, n in counts.items():
        lives = sorted(by_addr.get(addr, []), key=lambda t: int(t["alloc_ns"]))
        if len(lives) != n:
            problems.append(f"{hex(addr)}: {len(lives)} lifetimes, expected {n}")
        for k, t in enumerate(lives):
            symbol[t["id"]] = f"{hex(addr)}#{k}"
            if int(t["bytes"]) != 4096 * 4:
                problems.append(f"{hex(addr)}#{k}: {t['bytes']} bytes, expected 16384")
            if t["free_ns"] == "":
                problems.append(f"{hex(addr)}#{k}: never freed")
            elif k + 1 < len(lives) and int(t["free_ns"]) > int(lives[k + 1]["alloc_ns"]):
                problems.append(f"{hex(addr)}#{k} overlaps the next lifetime")
    unknown = [t["id"] for t in tensors if t["id"] not in symbol]
    if unknown:
        problems.append(f"tensors the program never made: {unknown}")
    kernels = rows(os.path.join(report, "kernels.csv"))
    got = [(k["name"], sorted(symbol.get(i, "?" + i) for i in k["touched"].split()))
           for k in kernels]
    if got != want_kernels:
        problems.append(f"kernels differ: got {got}, expected {want_kernels}")
    touched = [set(k["touched"].split()) for k in kernels]
    for t in tensors:
        uses = [i for i, s in enumerate(touched) if t["id"] in s]
        if not uses:
            continue
        first, last = kernels[uses[0]], kernels[uses[-1]]
        if int(t["alloc_ns"]) > int(first["start_ns"]):
            problems.append(f"{symbol.get(t['id'])}: allocated after its first kernel starts")
        if t["free_ns"] != "" and int(t["free_ns"]) < int(last["end_ns"]):
            problems.append(f"{symbol.get(t['id'])}: freed before its last kernel ends")
    for p in rows(os.path.join(report, "swap.csv")):
        start, end = int(p["period_start_kernel"]), int(p["period_end_kernel"])
        inside = [i for i in range(len(kernels))
                  if (start < i < end) or (p["looped"] == "1" and (i > start or i < end))]
        if any(p["tensor"] in touched[i] for i in inside):
            problems.append(f"swap.csv: {symbol.get(p['tensor'])} idle across a kernel using it")
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: check_graph_memory.py TRUTH_DIR REPORT_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
