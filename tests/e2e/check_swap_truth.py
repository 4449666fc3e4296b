#!/usr/bin/env python3
"""check_swap_truth.py: swap.csv never offers a tensor as idle across a
kernel that uses it.

  check_swap_truth.py TRUTH_DIR REPORT_DIR

For every row of REPORT_DIR/swap.csv (tensor, period_start_kernel,
period_end_kernel, looped), no kernel of the period (start..end-1, or
start..N-1 then 0..end-1 when looped) touches that tensor in the ground
truth (TRUTH_DIR/kernel_tensors.csv, indices as in TRUTH_DIR/kernels.csv,
the analysis' own order when it matches the truth). Prints one line per
offending row; exit 1 if any. Must never read what it checks from the
report's own kernel lists.
"""
import csv
import os
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    truth_dir, report_dir = argv[1], argv[2]
    n_kernels = len(rows(os.path.join(truth_dir, "kernels.csv")))
    uses = {}
    for r in rows(os.path.join(truth_dir, "kernel_tensors.csv")):
        uses.setdefault(int(r["tensor"]), set()).add(int(r["index"]))
    bad = 0
    for r in rows(os.path.join(report_dir, "swap.csv")):
        tensor, start, end = int(r["tensor"]), int(r["period_start_kernel"]), int(r["period_end_kernel"])
        span = list(range(start, n_kernels)) + list(range(0, end)) if r["looped"] == "1" \
            else list(range(start, end))
        crossed = sorted(uses.get(tensor, set()).intersection(span))
        if crossed:
            bad += 1
            print(f"swap.csv: tensor {tensor} idle over kernels {start}..{end} "
                  f"(looped {r['looped']}), but kernels {crossed} use it")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
