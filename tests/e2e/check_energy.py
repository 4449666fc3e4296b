#!/usr/bin/env python3
"""check_energy.py: energy.csv of a report of the energy_kernels workload
(tests/workloads/energy_kernels.c) against the simulated power model's
exact integral, which the workload wrote by construction (energy_truth.csv).

  check_energy.py METHOD TRUTH_DIR REPORT_DIR TRACE_DIR IDLE_MW MAX_KERNEL_MW

METHOD: counter (the GPU has an energy counter) or power (power readings
only). Every truth row (kernel name, op) must be in energy.csv with the same
count and time, and its energy within a tolerance computed from the
trace's own samples (babeltrace2 text of dnntrace_gpu:power), so that it
holds however late the sampler ran:

- counter, when every kernel and the idle time before and after hold at
  least two samples (each run then has an interval wholly inside it, and
  the split of boundary intervals is exact): 2 mJ per kernel (the counter's
  integer mJ at each end) plus the power spread times the samples' read
  time (when in its read window a sample was taken) at four samples per
  kernel;
- power, when every kernel has a sample read wholly inside it: the mean of
  its samples is its exact power, so 1e-6 relative;
- otherwise (the sampler starved): the sound bound, for each kernel, of the
  sample intervals holding its start and end times the power spread.

Prints one line per difference (then exits 1), and last which case held;
never relaxes a check to pass.
"""
import csv
import re
import subprocess
import sys

HEADER = ["kind", "name", "count", "time_us", "energy_mj", "mean_power_w"]


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def samples_of(trace):
    text = subprocess.run(["babeltrace2", trace], check=True,
                          capture_output=True, text=True).stdout
    out = []
    for line in text.splitlines():
        if "dnntrace_gpu:power" not in line:
            continue
        ns = int(re.search(r"sample_ns = (\d+)", line).group(1))
        read = int(re.search(r"read_ns = (\d+)", line).group(1))
        out.append((ns, read))
    return sorted(out)


def main():
    method, truth_dir, report, trace = sys.argv[1:5]
    idle_mw, max_kernel_mw = int(sys.argv[5]), int(sys.argv[6])
    spread_w = max_kernel_mw / 1000.0          # P_max - P_min of the model
    problems = []
    rows = read_csv(f"{report}/energy.csv")
    if not rows or rows[0] != HEADER:
        print(f"energy.csv header {rows[:1]}, want {HEADER}")
        return 1
    got = {(r[0], r[1]): r for r in rows[1:]}
    kernels = [r for r in csv.DictReader(open(f"{report}/kernels.csv"))]
    samples = samples_of(trace)
    if len(samples) < 2:
        print(f"{len(samples)} power samples in the trace")
        return 1
    mids = [ns + read / 2 for ns, read in samples]
    max_read = max(read for _, read in samples)

    def inside(lo, hi):
        return sum(1 for m in mids if lo <= m < hi)

    def wholly_inside(lo, hi):
        return any(lo <= ns and ns + read < hi for ns, read in samples)

    def interval_len(t):
        before = [m for m in mids if m <= t]
        after = [m for m in mids if m > t]
        if not before or not after:
            return float("inf")
        return after[0] - before[-1]

    first = min(int(k["start_ns"]) for k in kernels)
    last = max(int(k["end_ns"]) for k in kernels)
    if method == "counter":
        exact = (all(inside(int(k["start_ns"]), int(k["end_ns"])) >= 2
                     for k in kernels)
                 and inside(0, first) >= 2 and inside(last, 2**64) >= 2)
    else:
        exact = all(wholly_inside(int(k["start_ns"]), int(k["end_ns"]))
                    for k in kernels)

    def tolerance(k, truth_mj):
        if exact and method == "counter":
            return 2 + (idle_mw + max_kernel_mw) / 1000.0 * max_read * 4e-6
        if exact:
            return 1e-6 * truth_mj + 1e-3
        s, e = int(k["start_ns"]), int(k["end_ns"])
        return (interval_len(s) + interval_len(e)) * spread_w * 1e-6 + 2

    for t in csv.DictReader(open(f"{truth_dir}/energy_truth.csv")):
        key = (t["kind"], t["name"])
        r = got.get(key)
        if r is None:
            problems.append(f"{key}: missing from energy.csv")
            continue
        if r[2] != t["count"] or r[3] != t["time_us"]:
            problems.append(f"{key}: count,time_us {r[2]},{r[3]}, want "
                            f"{t['count']},{t['time_us']}")
        column = "name" if t["kind"] == "kernel" else "op"
        mine = [k for k in kernels if k[column] == t["name"]]
        want = float(t["energy_mj"])
        tol = sum(tolerance(k, want / max(len(mine), 1)) for k in mine)
        energy = float(r[4])
        if not abs(energy - want) <= tol:
            problems.append(f"{key}: {energy} mJ, want {want} +/- {tol:.3f} "
                            f"({'exact case' if exact else 'sampler starved'})")
        time_s = float(t["time_us"]) / 1e6
        if time_s > 0 and not abs(float(r[5]) - energy / 1000 / time_s) <= 0.001 + 1e-6 * float(r[5]):
            problems.append(f"{key}: mean_power_w {r[5]} is not energy/time")
    extra = set(got) - {(t["kind"], t["name"]) for t in
                        csv.DictReader(open(f"{truth_dir}/energy_truth.csv"))}
    if extra:
        problems.append(f"rows not in the truth: {sorted(extra)}")
    for p in problems:
        print(p)
    print(f"{method}: {len(got)} rows checked, {len(samples)} samples, "
          f"{'exact case' if exact else 'sampler starved: sound bound'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
