#!/usr/bin/env python3
"""check_child_graphs.py: the report of a run whose child graph holds two
nodes of the same kernel (tests/workloads/child_graphs.c,
tests/nvcc/nv_graph_children.cu, with same-kernel): no trace tells which
of those records is which node, so the analysis must leave them unknown
(each touches every tensor live at its start), never give them one node's
tensor; every other kernel touches exactly what the truth says.

  check_child_graphs.py TRUTH_DIR REPORT_DIR AMBIGUOUS_KERNEL N_KERNELS

Checks kernels.config's Name of each kernel against the truth: for a
kernel named AMBIGUOUS_KERNEL, "name(every tensor of the truth, live at
that kernel, in id order)"; for the others "name(its truth's tensors)".
N_KERNELS: how many kernels both must have. Prints one line per
difference; exit 1 when any.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def rows(truth_dir, name):
    with open(os.path.join(truth_dir, name), newline="") as f:
        return list(csv.DictReader(f))


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    truth_dir, report_dir, ambiguous, n_kernels = argv[1], argv[2], argv[3], int(argv[4])
    tensors = rows(truth_dir, "tensors.csv")
    names = {r["id"]: r["name"] for r in tensors}
    touched = {}
    for r in rows(truth_dir, "kernel_tensors.csv"):  # a row per role: each tensor once
        seen = touched.setdefault(int(r["index"]), [])
        if names[r["tensor"]] not in seen:
            seen.append(names[r["tensor"]])
    listed = compare.parse_kernels_config(os.path.join(report_dir, "kernels.config"))
    kernels = rows(truth_dir, "kernels.csv")
    problems = []
    if not len(listed) == len(kernels) == n_kernels:
        problems.append(f"{len(listed)} kernels reported, truth {len(kernels)}, expected {n_kernels}")
    # live at a kernel: born (first use) at or before it, dead (last use)
    # at or after it; a global tensor lives throughout
    live = lambda t, i: t["global"] == "1" or int(t["first_use"]) <= i <= int(t["last_use"])
    for k in kernels:
        i = int(k["index"])
        have = listed[i]["name"] if i < len(listed) else None
        if k["name"] == ambiguous:
            every = [t["name"] for t in sorted(tensors, key=lambda t: int(t["id"])) if live(t, i)]
            want = f"{k['name']}({', '.join(every)})"
        else:
            want = f"{k['name']}({', '.join(touched.get(i, []))})"
        if have != want:
            problems.append(f"kernel {i}: {have!r}, expected {want!r}")
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
