#!/usr/bin/env python3
"""dnntrace plot REPORT_DIR: draws a dnntrace report's pictures into
REPORT_DIR/plots/ (or each pid<P>-dev<D>/plots/ of a report of several
processes or devices) with matplotlib:

  memory_over_kernels.png  G10 fig. 2: memory at each kernel by category,
                           live bytes, active bytes (rolling max over 8),
                           live bytes with every feasible swap, the peak,
                           each step's start (steps.csv)
  inactive_cdf.png         G10 fig. 3: CDF of inactive-period time
  inactive_vs_size.png     G10 fig. 4: inactive time vs tensor size (log-log),
                           with the swap feasibility line of swap.csv
  categories.png           the MXNet GPU memory profiler's two bars: the
                           peak by category as traced and with every
                           feasible swap taken (Untrackable included)
  overheads.png            per-op host overheads T1..T5 (overheads.csv)
  energy.png               energy per op (energy.csv)

A plot whose CSV is absent is skipped with a note on stderr. It reads
only the report's CSV files and never writes outside plots/; nothing goes
to stdout. Exit 0 done, 1 bad REPORT_DIR (one line), 3 matplotlib missing.
"""
import csv
import os
import re
import sys

PROG = "dnntrace plot"
ROLLING = 8          # G10 plots active memory as a rolling max over 8 kernels
MAX_POINTS = 20000   # longer series are reduced to this many bins
TOP = 20             # ops shown in the per-op bar charts


def die(message, status=1):
    print(f"{PROG}: {message}", file=sys.stderr)
    sys.exit(status)


def note(message):
    print(f"{PROG}: {message}", file=sys.stderr)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def byte_unit(largest):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if largest >= scale:
            return unit, scale
    return "bytes", 1


def human(n):
    unit, scale = byte_unit(n)
    return f"{n / scale:.3g} {unit}" if scale > 1 else f"{n} bytes"


def category_colors(group):
    """One color per category, the same in every plot: by the row order
    of categories.csv; Others gray, Untrackable light gray."""
    colors = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple",
              "tab:brown", "tab:pink", "tab:olive", "tab:cyan"]
    path = os.path.join(group, "categories.csv")
    names = [r["category"] for r in read_csv(path)] if os.path.exists(path) else []
    table = {"Others": "tab:gray", "Untrackable": "lightgray"}
    for name in names:
        if name not in table:
            table[name] = colors[(len(table) - 2) % len(colors)]
    return table


def number(text, default=0.0):
    try:
        return float(text)
    except (TypeError, ValueError):
        return default


def bins(n):
    """Index ranges reducing n points to at most MAX_POINTS."""
    step = max(1, -(-n // MAX_POINTS))
    return [(i, min(n, i + step)) for i in range(0, n, step)]


MAX_STEP_LABELS = 15


def step_marks(group):
    """(kernel index, "step N") of each step of steps.csv that holds a
    kernel of the report: its first kernel, where the plot draws its line.
    Empty without steps.csv or steps."""
    path = os.path.join(group, "steps.csv")
    if not os.path.exists(path):
        return []
    return [(int(r["first_kernel"]), f"step {r['step']}") for r in read_csv(path)
            if r["first_kernel"] != ""]


def draw_steps(ax, marks):
    """A thin vertical line at each step's first kernel, labelled step N
    just above the frame, clear of the curves and the peak's label (at most
    MAX_STEP_LABELS labels, evenly taken, so they stay legible)."""
    every = max(1, -(-len(marks) // MAX_STEP_LABELS))
    for i, (x, label) in enumerate(marks):
        ax.axvline(x, color="tab:blue", linewidth=1.0, alpha=0.8,
                   label="step start (steps.csv)" if i == 0 else None)
        if i % every == 0:
            ax.text(x, 1.005, label, transform=ax.get_xaxis_transform(), va="bottom",
                    ha="center", fontsize=7, color="tab:blue")


def memory_over_kernels(plt, group, out):
    memory = read_csv(os.path.join(group, "memory.csv"))
    if not memory:
        return "memory.csv has no kernels: no memory plot"
    live = [int(r["live_bytes"]) for r in memory]
    active = [int(r["active_bytes"]) for r in memory]
    rolled = [max(active[max(0, i - ROLLING + 1):i + 1]) for i in range(len(active))]
    categories, untrackable, swapped = [], None, None
    path = os.path.join(group, "categories_time.csv")
    series = {}
    if os.path.exists(path):
        rows = read_csv(path)
        names = [c for c in (rows[0].keys() if rows else [])
                 if c not in ("index", "time_us", "Untrackable", "live_with_swaps")]
        for c in names:
            values = [int(r[c]) for r in rows]
            if any(values):
                categories.append(c)
                series[c] = values
        known = [int(r["Untrackable"]) for r in rows if r.get("Untrackable")]
        untrackable = max(known) if known else None
        if rows and rows[0].get("live_with_swaps") not in (None, ""):
            swapped = [int(r["live_with_swaps"]) for r in rows]
    unit, scale = byte_unit(max(live + rolled + [1]))
    ranges = bins(len(live))
    # a kernel's memory holds from its index to the next: steps, with one
    # more x at the end so the last kernel has its width
    x = [lo for lo, _ in ranges] + [len(live)]

    def binned(values):
        reduced = [max(values[lo:hi]) / scale for lo, hi in ranges]
        return reduced + reduced[-1:]

    fig, ax = plt.subplots(figsize=(11, 5))
    if categories:
        palette = category_colors(group)
        ax.stackplot(x, *[binned(series[c]) for c in categories], labels=categories, alpha=0.75,
                     step="post", colors=[palette.get(c, "black") for c in categories])
    ax.plot(x, binned(live), color="black", linewidth=1.5, drawstyle="steps-post",
            label="live (all tensors)")
    ax.plot(x, binned(rolled), color="tab:red", linewidth=1.2, drawstyle="steps-post",
            linestyle="--", label=f"active (max over {ROLLING} kernels)")
    # the peak: the kernel with the most live bytes, named
    peak = max(range(len(live)), key=lambda i: live[i])
    kernels = read_csv(os.path.join(group, "kernels.csv")) \
        if os.path.exists(os.path.join(group, "kernels.csv")) else []
    name = kernels[peak]["name"] if peak < len(kernels) else ""
    name = name if len(name) <= 40 else name[:37] + "..."
    ax.plot([peak + 0.5], [live[peak] / scale], marker="v", color="black", markersize=8,
            linestyle="none", label=f"peak: {human(live[peak])} at kernel {peak}")
    ax.annotate(f"peak {human(live[peak])}\nkernel {peak} {name}", (peak + 0.5, live[peak] / scale),
                xytext=(0, 12), textcoords="offset points", ha="center", fontsize=7)
    if swapped and len(swapped) == len(live) and swapped != live:
        ax.plot(x, binned(swapped), color="black", linewidth=1.8, drawstyle="steps-post",
                linestyle=":", label="live with every feasible swap")
    ax.set_xlabel("CUDA kernel index")
    ax.set_ylabel(f"device memory ({unit})")
    title = "Memory over kernels (G10 fig. 2)"
    if untrackable is not None:
        title += f" - Untrackable, not drawn: {human(untrackable)}"
    marks = step_marks(group)
    ax.set_title(title, pad=14 if marks else 6)   # room for the step labels
    ax.set_xlim(0, len(live))
    ax.set_ylim(0, max(live + rolled + [1]) / scale * 1.15)   # room for the peak's label
    draw_steps(ax, marks)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "memory_over_kernels.png"), dpi=110)
    plt.close(fig)
    return None


def periods_of(group):
    path = os.path.join(group, "periods.csv")
    return read_csv(path) if os.path.exists(path) else []


def inactive_cdf(plt, group, out):
    times = sorted(number(r["estimated_us"]) for r in periods_of(group))
    if not times:
        return "no inactive periods: no CDF plot"
    n = len(times)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.step([times[0]] + times, [0.0] + [(i + 1) / n for i in range(n)], where="post",
            color="tab:blue")
    positive = [t for t in times if t > 0]
    if positive and max(positive) / min(positive) > 100:
        ax.set_xscale("log")
    ax.set_xlabel("inactive period time (µs)")
    ax.set_ylabel("fraction of inactive periods")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"CDF of inactive-period time ({n} periods, G10 fig. 3)")
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "inactive_cdf.png"), dpi=110)
    plt.close(fig)
    return None


def inactive_vs_size(plt, group, out):
    path = os.path.join(group, "swap.csv")
    if not os.path.exists(path):
        return "swap.csv absent: no inactive time vs size plot"
    rows = [r for r in read_csv(path) if number(r["idle_us"]) > 0 and number(r["size_bytes"]) > 0]
    if not rows:
        return "no inactive periods: no inactive time vs size plot"
    fig, ax = plt.subplots(figsize=(7, 5))
    for feasible, color, label in (("1", "tab:green", "swap feasible"), ("0", "tab:red", "swap not feasible")):
        chosen = [r for r in rows if r["feasible"] == feasible]
        if chosen:
            ax.scatter([number(r["size_bytes"]) for r in chosen], [number(r["idle_us"]) for r in chosen],
                       s=18, alpha=0.7, color=color, label=f"{label} ({len(chosen)})")
    # transfer_us = 2 * size / bandwidth: the line above which a swap fits
    sizes = sorted({number(r["size_bytes"]) for r in rows})
    r0 = rows[0]
    gbps = 2 * number(r0["size_bytes"]) / (number(r0["transfer_us"]) * 1000) if number(r0["transfer_us"]) else 0
    if gbps:
        lo, hi = sizes[0] / 2, sizes[-1] * 2
        ax.plot([lo, hi], [2 * lo / gbps / 1000, 2 * hi / gbps / 1000], color="gray", linestyle="--",
                label=f"out and back at {gbps:.3g} GB/s")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("tensor size (bytes)")
    ax.set_ylabel("inactive period time (µs)")
    ax.set_title("Inactive time vs tensor size (G10 fig. 4)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "inactive_vs_size.png"), dpi=110)
    plt.close(fig)
    return None


def categories_bars(plt, group, out):
    path = os.path.join(group, "categories.csv")
    if not os.path.exists(path):
        return "categories.csv absent: no category chart"
    rows = [r for r in read_csv(path) if r["peak_bytes"] != ""]
    rows = [r for r in rows if int(r["peak_bytes"]) or int(r["swapped_peak_bytes"])]
    if not rows:
        return "no memory in any category: no category chart"
    totals = [sum(int(r[k]) for r in rows) for k in ("peak_bytes", "swapped_peak_bytes")]
    unit, scale = byte_unit(max(totals))
    fig, ax = plt.subplots(figsize=(7, 5.5))
    bottoms = [0.0, 0.0]
    palette = category_colors(group)
    for r in rows:
        values = [int(r["peak_bytes"]) / scale, int(r["swapped_peak_bytes"]) / scale]
        untrackable = r["category"] == "Untrackable"
        ax.bar([0, 1], values, bottom=bottoms, width=0.55, label=r["category"],
               color=palette.get(r["category"], "black"),
               hatch="//" if untrackable else None, edgecolor="white")
        bottoms = [bottoms[0] + values[0], bottoms[1] + values[1]]
    for i, total in enumerate(totals):
        ax.text(i, total / scale, f"{total / scale:.3g} {unit}", ha="center", va="bottom", fontsize=9)
    ax.set_xticks([0, 1], ["peak as traced", "peak with every\nfeasible swap"])
    ax.set_ylabel(f"device memory at the peak ({unit})")
    ax.set_title("Memory by category (MXNet GPU memory profiler)")
    ax.set_ylim(0, max(totals) / scale * 1.12)
    handles, labels = ax.get_legend_handles_labels()   # top of the stack first
    ax.legend(handles[::-1], labels[::-1], fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "categories.png"), dpi=110)
    plt.close(fig)
    return None


T_MEANING = {
    1: "T1 gap before the op",
    2: "T2 op start to first launch",
    3: "T3 last launch to op end",
    4: "T4 launch calls",
    5: "T5 gaps between launches",
}


def overheads(plt, group, out):
    path = os.path.join(group, "overheads.csv")
    if not os.path.exists(path):
        return "overheads.csv absent: no per-op overhead plot"
    rows = read_csv(path)
    if not rows:
        return "overheads.csv has no ops: no per-op overhead plot"
    means = {r["op"]: [number(r.get(f"t{i}_mean_us")) for i in range(1, 6)] for r in rows}
    ops = sorted(means, key=lambda op: -sum(means[op]))[:TOP][::-1]
    fig, ax = plt.subplots(figsize=(10, max(3.0, 0.4 * len(ops) + 1.5)))
    left = [0.0] * len(ops)
    for i in range(5):
        values = [means[op][i] for op in ops]
        if not any(values):
            continue                 # no op has this overhead: no legend entry
        ax.barh(range(len(ops)), values, left=left, label=T_MEANING[i + 1])
        left = [a + b for a, b in zip(left, values)]
    ax.set_yticks(range(len(ops)), [op if len(op) <= 40 else op[:37] + "..." for op in ops], fontsize=8)
    ax.set_xlim(0, max(left + [1e-9]) * 1.05)   # the longest bar whole
    ax.set_xlabel("mean host time per occurrence (µs)")
    shown = f"top {len(ops)} of {len(means)} ops" if len(means) > len(ops) else f"{len(ops)} ops"
    ax.set_title(f"Host overheads per op, T1..T5 ({shown})")
    ax.grid(alpha=0.3, axis="x")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))   # beside the bars
    fig.tight_layout()
    fig.savefig(os.path.join(out, "overheads.png"), dpi=110)
    plt.close(fig)
    return None


def energy(plt, group, out):
    path = os.path.join(group, "energy.csv")
    if not os.path.exists(path):
        return "energy.csv absent: no energy plot"
    rows = read_csv(path)
    if not rows:
        return "energy.csv has no rows: no energy plot"
    # ops when the file has them, else its first kind (one kind per chart)
    kind = "op" if any(r.get("kind") == "op" for r in rows) else rows[0].get("kind")
    ops = [r for r in rows if r.get("kind") == kind]
    kind = kind or "op"
    ops = sorted(ops, key=lambda r: -number(r["energy_mj"]))[:TOP]
    # the kernels outside any op (the summary's figure): often the largest
    outside = None
    if kind == "op":
        summary = os.path.join(group, "summary.txt")
        text = open(summary, encoding="utf-8").read() if os.path.exists(summary) else ""
        m = re.search(r"outside any op: ([0-9.]+) J", text)
        if m and float(m.group(1)) > 0:
            outside = {"name": "kernels outside any op", "energy_mj": str(float(m.group(1)) * 1000),
                       "mean_power_w": "", "count": ""}
            ops = sorted(ops + [outside], key=lambda r: -number(r["energy_mj"]))[:TOP]
    ops = ops[::-1]
    fig, ax = plt.subplots(figsize=(10, max(3.0, 0.4 * len(ops) + 1.5)))
    values = [number(r["energy_mj"]) for r in ops]
    ax.barh(range(len(ops)), values,
            color=["tab:gray" if r is outside else "tab:orange" for r in ops])
    for i, r in enumerate(ops):
        label = (f"  {number(r['mean_power_w']):.0f} W, {int(number(r['count']))}x"
                 if r is not outside else "  launched outside any library call or range")
        ax.text(values[i], i, label, va="center", fontsize=7)
    names = [r["name"] if len(r["name"]) <= 40 else r["name"][:37] + "..." for r in ops]
    ax.set_yticks(range(len(ops)), names, fontsize=8)
    ax.set_xlabel("energy, all occurrences (mJ)")
    ax.set_xlim(0, max(values + [1e-9]) * 1.6)   # room for the labels
    ax.set_title(f"Energy per {kind} (labels: mean power, occurrences)")
    ax.grid(alpha=0.3, axis="x")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "energy.png"), dpi=110)
    plt.close(fig)
    return None


PLOTS = (memory_over_kernels, inactive_cdf, inactive_vs_size, categories_bars, overheads, energy)


def main(argv):
    if len(argv) != 1 or argv[0].startswith("-"):
        die("usage: dnntrace plot REPORT_DIR")
    report = argv[0]
    if not os.path.isdir(report):
        die(f"{report}: no such report directory")
    # a report: summary.txt and memory.csv in it, or in each of its
    # pid<P>-dev<D> subdirectories (several processes or devices)
    def is_group(d):
        return all(os.path.isfile(os.path.join(d, f)) for f in ("summary.txt", "memory.csv"))

    if is_group(report):
        groups = [report]
    else:
        groups = sorted(os.path.join(report, d) for d in os.listdir(report)
                        if re.fullmatch(r"pid-?\d+-dev-?\d+", d) and is_group(os.path.join(report, d)))
    if not groups:
        die(f"{report}: not a dnntrace report (no summary.txt and memory.csv; run dnntrace analyze first)")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        # Debian's python3-matplotlib is for the system interpreter; the
        # python3 first on PATH may be another one (pyenv, a venv)
        system = "/usr/bin/python3"
        if (os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system)
                and not os.environ.get("DNNTRACE_PLOT_REEXEC")):
            os.environ["DNNTRACE_PLOT_REEXEC"] = "1"
            os.execv(system, [system, os.path.abspath(__file__)] + argv)
        die("matplotlib is not installed (Debian: python3-matplotlib, installed by make deps)", 3)
    for group in groups:
        out = os.path.join(group, "plots")
        os.makedirs(out, exist_ok=True)
        for plot in PLOTS:
            try:
                skipped = plot(plt, group, out)
            except (KeyError, ValueError, OSError, ZeroDivisionError, IndexError) as e:
                skipped = f"{plot.__name__}: cannot read the report ({type(e).__name__}: {e})"
            if skipped:
                note(f"{os.path.basename(os.path.abspath(group))}: {skipped}"
                     if len(groups) > 1 else skipped)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
