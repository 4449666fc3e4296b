#!/usr/bin/env python3
"""check_torch_report.py: checks that dnntrace's analysis of a traced
PyTorch run (train_small.py under `dnntrace record --torch-names`) is sane
and linked, for the real-GPU check (run_gpu_check.sh). It has no ground
truth: it checks what must hold on any GPU, from the model the script
describes (its "model " lines) and the reports themselves. Prints one line
per problem (at most 10 per check) and exits 1 when any, else one "ok:"
line; it never relaxes a check to pass.

  check_torch_report.py run MODEL_OUT REPORT OP_REPORT ALLOCATOR
      MODEL_OUT  the script's stdout (lines "model param NAME BYTES",
                 "model buffer NAME BYTES", "model module NAME",
                 "model steps N")
      REPORT     `dnntrace analyze` of the trace; OP_REPORT the same with
                 --granularity op; ALLOCATOR async or no-caching (record's
                 --allocator)
  check_torch_report.py same-kernels REPORT_A REPORT_B
      both runs launched the same kernels in the same order (names)

What `run` checks (a run whose CUPTI records were not linked to the calls
fails the first four: tests/gpu/README.md):
  summary    kernels > 0; no "launches without a kernel record", no
             "kernel times missing", no "events lost"
  api        every kernel has its api (the call that launched it); both
             library kernels (cudnn*, cublas*) and the program's own
             launches are there; every kernel touches a tensor
  ops        at --granularity op, every library call op ran kernels
             (duration > 0)
  names      each parameter and buffer is exactly one tensor param:NAME /
             buffer:NAME of its bytes, used by a kernel, of kind
             stream_ordered (async) or device (no-caching); each parameter
             has one grad:NAME per step and one optim:NAME.exp_avg and
             .exp_avg_sq (Adam); each leaf module one act:NAME per step
  steps      the NVTX range train_step is an op STEPS times (overheads.csv)
             and names kernels (kernels.csv op)
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import catalogue  # noqa: E402  (the product's catalogue, read)
import report_check  # noqa: E402
from report_check import checks, problem, problems, read_csv  # noqa: E402

report_check.shown_per_check = 10
# The calls that launch a program's own kernels: the catalogue's kernel
# launches, runtime and driver, every variant.
LAUNCH_APIS = {api for api in catalogue.api_names() if re.search(r"Launch(Cooperative)?Kernel", api)}
KIND = {"async": "stream_ordered", "no-caching": "device"}


def is_library(api):
    return api.startswith("cudnn") or api.startswith("cublas")


def read_model(path):
    model = {"param": {}, "buffer": {}, "module": [], "steps": None}
    with open(path, errors="replace") as f:
        for line in f:
            words = line.split()
            if len(words) == 4 and words[:2] in (["model", "param"], ["model", "buffer"]):
                model[words[1]][words[2]] = words[3]
            elif len(words) == 3 and words[:2] == ["model", "module"]:
                model["module"].append(words[2])
            elif len(words) == 3 and words[:2] == ["model", "steps"]:
                model["steps"] = int(words[2])
    if not model["param"] or not model["module"] or not model["steps"]:
        problem("model", f"{path} does not describe the model (model param/module/steps lines)")
    return model


def check_summary(report):
    path = os.path.join(report, "summary.txt")
    text = open(path, errors="replace").read() if os.path.exists(path) else ""
    if not text:
        problem("summary", f"missing or empty {path}")
    m = re.search(r"^kernels: (\d+)", text, re.M)
    if not m or int(m[1]) == 0:
        problem("summary", f"no kernels ({m[0] if m else 'no kernels line'})")
    for bad in ("launches without a kernel record", "kernel times missing", "events lost",
                "analysis incomplete"):
        for line in text.splitlines():
            if line.startswith(bad):
                problem("summary", line)


def check_api(kernels):
    no_api = [k for k in kernels if not k["api"]]
    if no_api:
        problem("api", f"{len(no_api)} of {len(kernels)} kernels have no api (not linked to a call), "
                       f"first: kernel {no_api[0]['index']} {no_api[0]['name'][:60]}")
    library = [k for k in kernels if is_library(k["api"])]
    launches = [k for k in kernels if k["api"] in LAUNCH_APIS]
    if not library:
        problem("api", "no kernel of a cuDNN or cuBLAS call")
    if not launches:
        problem("api", "no kernel of the program's own launches")
    other = sorted({k["api"] for k in kernels
                     if k["api"] and not is_library(k["api"]) and k["api"] not in LAUNCH_APIS})
    if other:
        problem("api", f"kernels of unexpected calls: {', '.join(other[:5])}")
    untouched = [k for k in kernels if not k["touched"].strip()]
    if untouched:
        problem("api", f"{len(untouched)} kernels touch no tensor, first: kernel "
                       f"{untouched[0]['index']} ({untouched[0]['api']}) {untouched[0]['name'][:60]}")
    return len(library), len(launches)


def check_ops(op_kernels):
    empty = [k for k in op_kernels if is_library(k["api"]) and k["duration_ns"] in ("", "0")]
    if empty:
        apis = sorted({k["api"] for k in empty})
        problem("ops", f"{len(empty)} library call ops ran no kernel ({', '.join(apis)}), "
                       f"first: op {empty[0]['index']}")
    return sum(1 for k in op_kernels if is_library(k["api"]))


def check_names(model, tensors, allocator):
    by_name = {}
    for t in tensors:
        by_name.setdefault(t["name"], []).append(t)
    steps = model["steps"] or 0
    for kind in ("param", "buffer"):
        for name, size in model[kind].items():
            found = by_name.get(f"{kind}:{name}", [])
            if len(found) != 1:
                problem("names", f"{len(found)} tensors named {kind}:{name}, expected 1")
                continue
            t = found[0]
            if t["bytes"] != size:
                problem("names", f"{kind}:{name} has {t['bytes']} bytes, the model says {size}")
            if not t["first_use"]:
                problem("names", f"{kind}:{name} (tensor {t['id']}) is used by no kernel")
            if t["kind"] != KIND[allocator]:
                problem("names", f"{kind}:{name} (tensor {t['id']}) is of kind {t['kind']}, "
                                 f"expected {KIND[allocator]} with --allocator={allocator}")
    for name, size in model["param"].items():
        grads = by_name.get(f"grad:{name}", [])
        if len(grads) != steps or any(t["bytes"] != size for t in grads):
            problem("names", f"{len(grads)} tensors grad:{name} "
                             f"({sorted({t['bytes'] for t in grads})} bytes), expected {steps} of {size}")
        for state in ("exp_avg", "exp_avg_sq"):
            found = by_name.get(f"optim:{name}.{state}", [])
            if len(found) != 1 or found[0]["bytes"] != size:
                problem("names", f"{len(found)} tensors optim:{name}.{state}, expected 1 of {size} bytes")
    for name in model["module"]:
        acts = by_name.get(f"act:{name}", [])
        if len(acts) != steps:
            problem("names", f"{len(acts)} tensors act:{name}, expected {steps} (one per step)")


def check_steps(model, kernels, report):
    steps = model["steps"] or 0
    rows = [r for r in read_csv(os.path.join(report, "overheads.csv")) if r.get("op") == "train_step"]
    count = int(rows[0]["count"]) if rows and rows[0].get("count", "").isdigit() else 0
    if count != steps:
        problem("steps", f"overheads.csv counts {count} train_step ops, expected {steps}")
    named = sum(1 for k in kernels if k.get("op") == "train_step")
    if named == 0:
        problem("steps", "no kernel ran inside an NVTX range train_step (kernels.csv op)")
    return named


def run(model_out, report, op_report, allocator):
    if allocator not in KIND:
        print(f"check_torch_report: allocator {allocator!r}: async or no-caching", file=sys.stderr)
        return 2
    model = read_model(model_out)
    check_summary(report)
    kernels = read_csv(os.path.join(report, "kernels.csv"))
    library, launches = check_api(kernels)
    library_ops = check_ops(read_csv(os.path.join(op_report, "kernels.csv")))
    tensors = read_csv(os.path.join(report, "tensors.csv"))
    check_names(model, tensors, allocator)
    in_steps = check_steps(model, kernels, report)
    if problems:
        print(f"{len(problems)} problems ({', '.join(checks())})")
        return 1
    print(f"ok: {len(kernels)} kernels ({library} of library calls, {launches} launches,"
          f" {in_steps} in train_step), {library_ops} library call ops with kernels,"
          f" {len(tensors)} tensors, {len(model['param'])} parameters named")
    return 0


def same_kernels(report_a, report_b):
    a = [k["name"] for k in read_csv(os.path.join(report_a, "kernels.csv"))]
    b = [k["name"] for k in read_csv(os.path.join(report_b, "kernels.csv"))]
    if a != b:
        first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        problem("same-kernels", f"{len(a)} and {len(b)} kernels, first difference at kernel {first}")
        return 1
    print(f"ok: the same {len(a)} kernels in both runs")
    return 0 if not problems else 1


def main(argv):
    if len(argv) == 6 and argv[1] == "run":
        return run(*argv[2:])
    if len(argv) == 4 and argv[1] == "same-kernels":
        return same_kernels(*argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
