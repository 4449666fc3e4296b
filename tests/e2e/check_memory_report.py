#!/usr/bin/env python3
"""check_memory_report.py TRUTH_DIR REPORT_DIR RULES(0|1) LINK_GBPS CONTEXT_BYTES

Checks a report's memory by category and swap opportunities against the
ground truth a workload wrote by construction (mem_categories.c):
- categories.csv: peak_bytes of every category = the workload's bytes of
  that category at the truth's peak kernel (first kernel of most live
  bytes), max_bytes = its maximum over kernels, mean_bytes = its mean;
  a category the workload never had is 0; Untrackable = CONTEXT_BYTES at
  the peak, as mean and as max (every sample sees exactly the context);
- categories_time.csv: every kernel's bytes per category, Untrackable
  CONTEXT_BYTES at every kernel (the first sample comes with the first
  allocation, before any kernel), live_with_swaps as below;
- swap.csv: one row per truth period (periods.csv), its size from the
  truth's tensors.csv, idle_us = the period's estimated time,
  transfer_us = 2 * size / LINK_GBPS, feasible = idle >= transfer;
- live_with_swaps and swapped_peak_bytes (sum over categories) = live bytes with
  each feasible period's tensor removed at the kernels that start after
  its copy out ended and before its copy back began (cumulative kernel
  durations of the truth's kernels.csv), and their peak.
Prints what differs and exits 1, or prints nothing and exits 0.
"""
import csv
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    truth, report, rules, gbps, context = sys.argv[1:6]
    rules, gbps, context = int(rules), float(gbps), int(context)
    errors = []

    # --- ground truth by construction ------------------------------------
    per_kernel = {}   # kernel -> {category: bytes}
    for r in rows(f"{truth}/categories_truth.csv"):
        if int(r["rules"]) == rules:
            per_kernel.setdefault(int(r["index"]), {})[r["category"]] = int(r["bytes"])
    memory = [r for r in rows(f"{truth}/memory.csv") if r["index"] != "peak"]
    live = [int(r["live_bytes"]) for r in memory]
    n = len(live)
    peak_k = live.index(max(live))
    sizes = {int(r["id"]): int(r["bytes"]) for r in rows(f"{truth}/tensors.csv")}
    durations = [int(r["duration_ns"]) for r in rows(f"{truth}/kernels.csv")]
    for k in range(n):
        if sum(per_kernel.get(k, {}).values()) != live[k]:
            errors.append(f"truth itself: kernel {k} categories do not add up")

    # --- categories.csv -------------------------------------------------------
    got = {r["category"]: r for r in rows(f"{report}/categories.csv")}
    names = set(c for k in per_kernel.values() for c in k)
    for name in names | (set(got) - {"Untrackable"}):
        if name not in got:
            errors.append(f"categories.csv: no row {name}")
            continue
        series = [per_kernel.get(k, {}).get(name, 0) for k in range(n)]
        want = {"peak_bytes": series[peak_k], "max_bytes": max(series)}
        for field, value in want.items():
            if int(got[name][field]) != value:
                errors.append(f"categories.csv {name} {field}: {got[name][field]}, want {value}")
        mean = sum(series) / n
        if abs(float(got[name]["mean_bytes"]) - mean) > 0.051:
            errors.append(f"categories.csv {name} mean_bytes: {got[name]['mean_bytes']}, want {mean:.1f}")
    u = got.get("Untrackable")
    if not u:
        errors.append("categories.csv: no Untrackable row")
    else:
        for field in ("peak_bytes", "max_bytes", "swapped_peak_bytes"):
            if u[field] == "" or int(u[field]) != context:
                errors.append(f"categories.csv Untrackable {field}: {u[field]!r}, want {context}")
        if u["mean_bytes"] == "" or float(u["mean_bytes"]) != context:
            errors.append(f"categories.csv Untrackable mean_bytes: {u['mean_bytes']!r}, want {context}")

    # --- categories_time.csv --------------------------------------------------
    timeline = rows(f"{report}/categories_time.csv")
    if len(timeline) != n:
        errors.append(f"categories_time.csv: {len(timeline)} rows, want {n}")
    for k, r in enumerate(timeline):
        for name in names:
            want = per_kernel.get(k, {}).get(name, 0)
            if int(r.get(name) or -1) != want:
                errors.append(f"categories_time.csv kernel {k} {name}: {r.get(name)}, want {want}")
        if r.get("Untrackable") != str(context):
            errors.append(f"categories_time.csv kernel {k} Untrackable: {r.get('Untrackable')}, want {context}")

    # --- swap.csv ---------------------------------------------------------------
    periods = rows(f"{truth}/periods.csv")
    swaps = rows(f"{report}/swap.csv")
    if len(swaps) != len(periods):
        errors.append(f"swap.csv: {len(swaps)} rows, want {len(periods)}")
    prefix = [0]
    for d in durations:
        prefix.append(prefix[-1] + d)

    def t_ext(k):
        return prefix[k] if k <= n else prefix[n] + prefix[k - n]

    out = [0] * n
    feasible_count = 0
    for p, s in zip(periods, swaps):
        tensor, size = int(p["tensor"]), sizes[int(p["tensor"])]
        idle_ns = round(float(p["estimated_us"]) * 1000)
        transfer_ns = 2 * size / gbps
        feasible = idle_ns >= transfer_ns
        want = {"tensor": str(tensor), "period": p["period"], "size_bytes": str(size),
                "period_start_kernel": p["start"], "period_end_kernel": p["end"],
                "looped": p["looped"], "idle_us": p["estimated_us"],
                "transfer_us": f"{transfer_ns / 1000:.3f}", "feasible": str(int(feasible))}
        for field, value in want.items():
            if s.get(field) != value:
                errors.append(f"swap.csv tensor {tensor} period {p['period']} {field}: {s.get(field)}, want {value}")
        if not feasible:
            continue
        feasible_count += 1
        a, b = int(p["start"]), int(p["end"]) + (n if p["looped"] == "1" else 0)
        one_way = size / gbps
        for k in range(a, b):
            if t_ext(a) + one_way <= t_ext(k) < t_ext(b) - one_way:
                out[k % n] += size
    swapped = [live[k] - out[k] for k in range(n)]
    for k, r in enumerate(timeline):
        if r.get("live_with_swaps") != str(swapped[k]):
            errors.append(f"categories_time.csv kernel {k} live_with_swaps: {r.get('live_with_swaps')}, want {swapped[k]}")
    swapped_peak = max(swapped)
    got_swapped = sum(int(r["swapped_peak_bytes"]) for c, r in got.items() if c != "Untrackable")
    if got_swapped != swapped_peak:
        errors.append(f"categories.csv swapped_peak_bytes add up to {got_swapped}, want {swapped_peak}")
    summary = open(f"{report}/summary.txt").read()
    line = (f"{feasible_count} of {len(periods)} inactive periods feasible; peak with every "
            f"feasible swap: {swapped_peak} bytes at kernel {swapped.index(swapped_peak)} "
            f"(traced: {live[peak_k]})")
    if line not in summary:
        errors.append(f"summary.txt lacks '{line}'")
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
