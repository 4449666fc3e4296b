#!/usr/bin/env python3
"""check_ranks.py: the analysis of one recording of N rank processes (each on
its own device) against each rank's ground truth, exactly: one report
directory per (process, device), named pid<PID>-dev<RANK>, each equal to its
rank's truth (compare.py truth); index.csv and the table heading
summary.txt list every rank with its pid, device, kernels and tensors from
the truth, its peak as its own report says, and totals that add up.

  check_ranks.py TRUTH_ROOT REPORT_DIR N

TRUTH_ROOT holds rank<r>/ and pids (lines "rank pid", ddp_launch.sh).
Prints one line per difference; exits 1 when any.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    root, report, n = argv[1], argv[2], int(argv[3])
    with open(os.path.join(root, "pids")) as f:
        pids = {int(r): int(p) for r, p in (line.split() for line in f if line.strip())}
    if sorted(pids) != list(range(n)):
        compare.problem("ranks", f"pids of ranks {sorted(pids)}, expected 0..{n - 1}")
    dirs = sorted(d for d in os.listdir(report) if os.path.isdir(os.path.join(report, d)))
    want_dirs = sorted(f"pid{pids[r]}-dev{r}" for r in pids)
    if dirs != want_dirs:
        compare.problem("ranks", f"report directories {dirs}, expected {want_dirs}")

    index = compare.read_csv(os.path.join(report, "index.csv"))
    by_dir = {row.get("report"): row for row in index}
    if len(index) != n:
        compare.problem("index", f"{len(index)} rows, expected {n}")
    with open(os.path.join(report, "summary.txt")) as f:
        summary = f.read().splitlines()
    if not summary or summary[0] != f"processes: {n}, process/device reports: {n}":
        compare.problem("summary", f"first line {summary[:1]}")
    total_kernels = total_tensors = total_peak = 0
    for r, pid in sorted(pids.items()):
        sub = f"pid{pid}-dev{r}"
        truth_dir = os.path.join(root, f"rank{r}")
        compare.compare_truth(truth_dir, os.path.join(report, sub))
        truth = compare.load_truth(truth_dir)
        memory = compare.read_csv(os.path.join(report, sub, "memory.csv"))
        peak = max((int(m["live_bytes"]) for m in memory), default=0)
        want = {"pid": str(pid), "device": str(r), "kernels": str(len(truth["kernels"])),
                "tensors": str(len(truth["tensors"])), "peak_bytes": str(peak),
                "failed_allocs": "0", "events_lost": "0", "damaged_gpu_records": "0",
                "report": sub}
        row = by_dir.get(sub)
        if row != want:
            compare.problem("index", f"rank {r}: {row}, expected {want}")
        line = (f"{pid:<10} {r:<6} {len(truth['kernels']):<10} {len(truth['tensors']):<10} "
                f"{peak:<14} {0:<8} {0:<11} {0:<8} {sub}/")
        if line not in summary:
            compare.problem("summary", f"rank {r}: no line {line!r}")
        total_kernels += len(truth["kernels"])
        total_tensors += len(truth["tensors"])
        total_peak += peak
    totals = [l.split() for l in summary if l.startswith("total ")]
    if totals != [["total", str(total_kernels), str(total_tensors), str(total_peak), "0", "0", "0"]]:
        compare.problem("summary", f"totals {totals}, expected {total_kernels} kernels, "
                        f"{total_tensors} tensors, {total_peak} bytes")
    if compare.problems:
        print(f"{len(compare.problems)} differences")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
