#!/usr/bin/env python3
"""rename_library_kernels.py REPORT: gives every kernel a library call
launched (kernels.csv api not a launch entry point) another name, in
kernels.csv and in kernels.config's api(name) line, as real cuBLAS and cuDNN
choose their own names: what a simgpu report needs to look like a real
GPU's where the trace cannot (tests/e2e/test_compare_real_gpu.sh). Edits
the report in place; only ever for tests, on a report made for them.
Exits 1 when there was no library kernel to rename.
"""
import csv
import os
import re
import sys

LAUNCH_APIS = ("cudaLaunchKernel", "cudaLaunchKernel_ptsz", "__cudaLaunchKernel",
               "__cudaLaunchKernel_ptsz", "cudaGraphLaunch", "cudaGraphLaunch_ptsz",
               "cuGraphLaunch", "cuGraphLaunch_ptsz", "cuLaunchKernel", "cuLaunchKernel_ptsz",
               "cuLaunchKernelEx", "cuLaunchKernelEx_ptsz")


def read_rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        return reader.fieldnames, list(reader)


def write_rows(path, fields, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def rename_library_kernels(report):
    path = os.path.join(report, "kernels.csv")
    fields, rows = read_rows(path)
    renamed = {}
    for row in rows:
        if row["api"] and row["api"] not in LAUNCH_APIS:
            renamed[row["index"]] = (row["api"], row["name"], f"sm90_xmma_{row['name']}_real")
            row["name"] = renamed[row["index"]][2]
    write_rows(path, fields, rows)
    config = os.path.join(report, "kernels.config")
    with open(config) as f:
        lines = f.readlines()
    for i, line in enumerate(lines):
        m = re.match(r"Kernel ID: (\d+), Name: (.*)$", line.rstrip("\n"))
        if m and m[1] in renamed:
            api, old, new = renamed[m[1]]
            lines[i] = line.replace(f"{api}({old})", f"{api}({new})")
    with open(config, "w") as f:
        f.writelines(lines)
    print(f"renamed {len(renamed)} library kernels")
    return 0 if renamed else 1


def main(argv):
    if len(argv) == 2:
        return rename_library_kernels(argv[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
