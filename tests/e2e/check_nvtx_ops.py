#!/usr/bin/env python3
"""check_nvtx_ops.py: the checks of the NVTX workload (tests/workloads/
nvtx_steps.c) that compare.py cannot make: the op of every kernel and the
window of one training step. Ground truth: the workload's nvtx_kernels.csv
(index,name,op,step,args) and nvtx_step2.csv (id,name,global), written by
construction, with its truth kernels.csv (touched tensor ids).

  check_nvtx_ops.py whole TRUTH_DIR REPORT_DIR
      compare.py's `truth` check, then kernels.csv's `op` column and every
      kernels.config Name line: `op(name(args))`, or `name(args)` without op
  check_nvtx_ops.py step TRUTH_DIR REPORT_DIR STEP RANGE
      a report of `--range RANGE` (the STEP-th train_step): exactly the
      kernels of step STEP, in order, with their names, ops and tensors; the
      summary's window line; the `global` column of tensors.csv and the
      "Is global?" of every tensor kernels.config lists, as nvtx_step2.csv

Prints one line per difference; never relaxes a check to pass.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def rows(path):
    if not os.path.exists(path):
        compare.problem("files", f"missing {path}")
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def expected_name(note):
    call = f"{note['name']}({note['args']})"
    return f"{note['op']}({call})" if note["op"] else call


def check_ops(notes, report_dir):
    """kernels.csv's op and kernels.config's Name of each kernel in notes,
    which are the report's kernels in order."""
    kernels = rows(os.path.join(report_dir, "kernels.csv"))
    listed = compare.parse_kernels_config(os.path.join(report_dir, "kernels.config"))
    if len(kernels) != len(notes) or len(listed) != len(notes):
        compare.problem("ops", f"{len(kernels)} kernels.csv rows, {len(listed)} kernels.config "
                        f"kernels, expected {len(notes)}")
    for i, (note, got) in enumerate(zip(notes, kernels)):
        if "op" not in got:
            compare.problem("ops", "kernels.csv has no op column")
            break
        if (got["name"], got["op"]) != (note["name"], note["op"]):
            compare.problem("ops", f"kernel {i}: {got['name']} op {got['op']!r}, "
                            f"expected {note['name']} op {note['op']!r}")
    for i, (note, have) in enumerate(zip(notes, listed)):
        if have["name"] != expected_name(note):
            compare.problem("kernels.config", f"kernel {i}: Name {have['name']!r}, "
                            f"expected {expected_name(note)!r}")


def check_whole(truth_dir, report_dir):
    compare.compare_truth(truth_dir, report_dir)
    check_ops(rows(os.path.join(truth_dir, "nvtx_kernels.csv")), report_dir)


def check_step(truth_dir, report_dir, step, range_name):
    notes = rows(os.path.join(truth_dir, "nvtx_kernels.csv"))
    truth_kernels = rows(os.path.join(truth_dir, "kernels.csv"))
    inside = [i for i, n in enumerate(notes) if n["step"] == step]
    if not inside or inside != list(range(inside[0], inside[-1] + 1)):
        compare.problem("truth", f"step {step}'s kernels {inside} are not one run")
        return
    check_ops([notes[i] for i in inside], report_dir)

    kernels = rows(os.path.join(report_dir, "kernels.csv"))
    for k, (i, got) in enumerate(zip(inside, kernels)):
        want = truth_kernels[i]
        if got["index"] != str(k):
            compare.problem("window", f"row {k}: index {got['index']}")
        if got["duration_ns"] != want["duration_ns"]:
            compare.problem("window", f"kernel {k} ({want['name']}): duration {got['duration_ns']}, "
                            f"expected {want['duration_ns']} (kernel {i} of the whole run)")
        if compare.id_list(got["touched"]) != compare.id_list(want["touched"]):
            compare.problem("window", f"kernel {k} ({want['name']}): touches {got['touched']!r}, "
                            f"expected {want['touched']!r}")

    window = f"kernels: {len(inside)} (window {inside[0]}:{inside[-1]} of {len(notes)}: range {range_name})"
    summary_path = os.path.join(report_dir, "summary.txt")
    summary = open(summary_path).read().splitlines() if os.path.exists(summary_path) else []
    if window not in summary:
        have = [line for line in summary if line.startswith("kernels:")]
        compare.problem("window", f"summary {have}, expected {window!r}")

    globals_truth = {int(t["id"]): t for t in rows(os.path.join(truth_dir, "nvtx_step2.csv"))}
    tensors = {int(t["id"]): t for t in rows(os.path.join(report_dir, "tensors.csv"))}
    if sorted(tensors) != sorted(globals_truth):
        compare.problem("globals", f"tensors.csv ids {sorted(tensors)}, expected {sorted(globals_truth)}")
    for tid, want in globals_truth.items():
        got = tensors.get(tid)
        if got is not None and got["global"] != want["global"]:
            compare.problem("globals", f"tensor {tid} ({want['name']}): global {got['global']}, "
                            f"expected {want['global']}")
    with open(os.path.join(report_dir, "kernels.config")) as f:
        for line in f:
            m = compare.TENSOR_LINE.match(line)
            if m and m[3] != globals_truth.get(int(m[1]), {}).get("global"):
                compare.problem("globals", f"kernels.config: tensor{m[1]} Is global? {m[3]}, "
                                f"expected {globals_truth.get(int(m[1]), {}).get('global')}")


def main(argv):
    if len(argv) == 4 and argv[1] == "whole":
        check_whole(argv[2], argv[3])
    elif len(argv) == 6 and argv[1] == "step":
        check_step(argv[2], argv[3], argv[4], argv[5])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if compare.problems:
        print(f"{len(compare.problems)} differences")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
