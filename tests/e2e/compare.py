#!/usr/bin/env python3
"""compare.py: checks dnntrace-analyze's reports against a workload's ground
truth (tests/workloads/truth.h), exactly. Prints one line per difference (at
most 20 per check) and exits 1 when any; never relaxes a check to pass
beyond what --real-gpu names.

  compare.py truth TRUTH_DIR REPORT_DIR          kernels, tensors, liveness,
                                                 periods, memory, G10 logs; with
                                                 exact roles also inputs, outputs,
                                                 api and kernels.config's tensors
                                                 with their Dimensions
  compare.py truth --real-gpu TRUTH_DIR REPORT_DIR
                                                 the same for a run on a real
                                                 GPU (tests/gpu/): times are the
                                                 GPU's, library calls choose
                                                 their kernels' names, and
                                                 untagged tensors the program did
                                                 not allocate are the libraries'
                                                 own (one "allowed:" line lists
                                                 them); all else exact
  compare.py g10 G10_REF_DIR TRUTH_DIR REPORT_DIR  liveness vs G10's own output
  compare.py stress TRUTH_DIR TRACE_TEXT REPORT_DIR  per-thread allocations
  compare.py failed TRUTH_DIR TRACE_TEXT REPORT_DIR  the failed allocation
  compare.py host TRUTH_DIR TRACE_TEXT REPORT_DIR    pinned host memory, the
                                                 program's own registered
                                                 included (host_register)
  compare.py trace-text TRACE_TEXT               prints parsed events (debug)

TRACE_TEXT is `babeltrace2 TRACE_DIR` output.
"""
import ast
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import catalogue  # noqa: E402  (the product's catalogue, read)
from report_check import checks, problem, problems, read_csv  # noqa: E402

# Trace format 3 writes a stream-ordered allocation or free as *_async.
ALLOCS = ("dnntrace_api:alloc", "dnntrace_api:alloc_async")
FREES = ("dnntrace_api:free", "dnntrace_api:free_async")

def id_list(text):
    return [int(x) for x in re.split(r"[\s;|:]+", (text or "").strip()) if x]


def g(value):
    """C++ iostream default formatting of a double (printf %g)."""
    return "%g" % value


# ---- G10 text formats (g10-semantics.md) -----------------------------------

TENSOR_LINE = re.compile(
    r"tensor(-?\d+), Name: (.*?), Is global\?: (\d): Size in byte: (\d+), ")


def parse_liveness_config(path):
    """{tensor id: {name, global, bytes, birth, death, periods[(a,b,time)]}}"""
    tensors = {}
    current = None
    if not os.path.exists(path):
        problem("files", f"missing {path}")
        return tensors
    with open(path) as f:
        for line in f:
            m = TENSOR_LINE.match(line)
            if m:
                tid = int(m[1])
                current = tensors.setdefault(tid, {
                    "name": m[2], "global": int(m[3]), "bytes": int(m[4]),
                    "birth": None, "death": None, "periods": []})
                continue
            if current is None:
                continue
            m = re.match(r"Liveness: Birth: (-?\d+), Death: (-?\d+)\.", line)
            if m:
                current["birth"], current["death"] = int(m[1]), int(m[2])
            elif line.startswith("This tensor is Global!"):
                current["birth"] = current["death"] = "global"
            m = re.match(r"Period (\d+): (-?\d+)--------(-?\d+)", line)
            if m:
                current["periods"].append([int(m[2]), int(m[3]), None])
            m = re.match(r"Estimated Time:(\S+)us", line)
            if m and current["periods"]:
                current["periods"][-1][2] = m[1]
    return tensors


KERNEL_LINE = re.compile(r"Kernel ID: (\d+), Name: (.*)$")
DIMENSIONS = re.compile(r"Size in byte: \d+, (?:Dimensions: (.*))?$")


def parse_kernels_config(path):
    """[{name, input: [(tensor id, dims)], output: [...]}] in kernel order."""
    kernels = []
    section = None
    if not os.path.exists(path):
        problem("files", f"missing {path}")
        return kernels
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = KERNEL_LINE.match(line)
            if m:
                kernels.append({"index": int(m[1]), "name": m[2], "input": [], "output": []})
                section = None
            elif line == "Input Tensors:":
                section = "input"
            elif line == "Output Tensors:":
                section = "output"
            elif kernels and section:
                t = TENSOR_LINE.match(line)
                d = DIMENSIONS.search(line)
                if t:
                    kernels[-1][section].append((int(t[1]), (d[1] or "") if d else "?"))
    return kernels


# A program's own launches (nvcc's <<<>>> included) and graph launches:
# Name is the kernel's with its tensors, not api(kernel) as for libraries.
PROGRAM_LAUNCH_APIS = ("cudaLaunchKernel", "cudaLaunchKernel_ptsz",
                       "__cudaLaunchKernel", "__cudaLaunchKernel_ptsz",
                       "cudaGraphLaunch", "cudaGraphLaunch_ptsz",
                       "cuGraphLaunch", "cuGraphLaunch_ptsz")


def compare_kernels_config(truth, truth_dir, path, tmap):
    """Input and Output tensors of every kernel, with their Dimensions, and
    the Name line of library kernels: api(kernel name); with --real-gpu the
    kernel name inside is the library's choice, and a library kernel's
    library-internal tensors are left out."""
    expected = {}
    for row in read_csv(os.path.join(truth_dir, "kernel_tensors.csv")):
        entry = expected.setdefault(int(row["index"]), {"input": [], "output": []})
        entry[row["direction"]].append((tmap.rid(int(row["tensor"])), row["dimensions"]))
    got = parse_kernels_config(path)
    if len(got) != len(truth["kernels"]):
        problem("kernels.config", f"{len(got)} kernels, expected {len(truth['kernels'])}")
    for want, have in zip(truth["kernels"], got):
        i = int(want["index"])
        if have["index"] != i:
            problem("kernels.config", f"kernel {i}: listed as Kernel ID {have['index']}")
        library = is_library_kernel(want)
        if library:
            name = f"{want['api']}({want['name']})"
            if tmap.real_gpu:
                if not re.fullmatch(re.escape(want["api"]) + r"\(.+\)", have["name"]):
                    problem("kernels.config", f"kernel {i}: Name {have['name']!r}, expected {want['api']}(a kernel name)")
            elif have["name"] != name:
                problem("kernels.config", f"kernel {i}: Name {have['name']!r}, expected {name!r}")
        for direction in ("input", "output"):
            wanted = sorted(expected.get(i, {}).get(direction, []))
            listed = have[direction]
            if library:
                listed = [(t, d) for t, d in listed if t not in tmap.extras]
            if sorted(listed) != wanted:
                problem("kernels.config", f"kernel {i} ({want['name']}): {direction}s {sorted(listed)}, expected {wanted}")


def parse_python_lists(path):
    values = {}
    if not os.path.exists(path):
        problem("files", f"missing {path}")
        return values
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*(\w+)\s*=\s*(.+)$", line)
            if m:
                try:
                    values[m[1]] = ast.literal_eval(m[2].strip())
                except (ValueError, SyntaxError):
                    pass
    return values


# ---- ground truth -----------------------------------------------------------

def load_truth(truth_dir):
    kernels = read_csv(os.path.join(truth_dir, "kernels.csv"))
    tensors = read_csv(os.path.join(truth_dir, "tensors.csv"))
    liveness = read_csv(os.path.join(truth_dir, "liveness.csv"))
    periods = read_csv(os.path.join(truth_dir, "periods.csv"))
    memory = read_csv(os.path.join(truth_dir, "memory.csv"))
    by_tensor = {}
    for p in periods:
        by_tensor.setdefault(int(p["tensor"]), []).append(
            (int(p["start"]), int(p["end"]), float(p["estimated_us"]), int(p["looped"])))
    return {
        "kernels": kernels,
        "tensors": {int(t["id"]): t for t in tensors},
        "liveness": {int(l["tensor"]): l for l in liveness},
        "periods": by_tensor,
        "memory": memory,
    }


def is_library_kernel(want):
    """A kernel the truth says a library call launched (its name is the
    library's to choose), not one of the program's own launches."""
    return want.get("api", "cudaLaunchKernel") not in PROGRAM_LAUNCH_APIS


def library_named(want):
    """A kernel whose name a library chose: one a library call launched, or
    a graph's node that a library call made during stream capture (the
    truth's library_named column; its api is the graph launch's)."""
    return is_library_kernel(want) or want.get("library_named") == "1"


# ---- which report tensor is which truth tensor --------------------------------

class TensorMap:
    """Truth tensor id -> report tensor id. Exact mode: the identity (the
    report's ids must be the truth's). Real-GPU mode (match_real_gpu): the
    truth's tensors in order among the report's, and `extras` the report
    tensors the program did not allocate (a library's own, e.g. cuBLAS's
    workspace allocated in cublasCreate), which shift the ids."""

    def __init__(self, real_gpu):
        self.real_gpu = real_gpu
        self.to_report = {}
        self.extras = set()

    def rid(self, tid):
        # A truth tensor the report lacks maps to an id no report has.
        return self.to_report.get(tid, -1 - tid) if self.real_gpu else tid

    def rids(self, text):
        return sorted(self.rid(t) for t in id_list(text))


def default_name(name, tid):
    """The analyzer's name for a tensor nobody tagged: t<id>."""
    return name == f"t{tid}"


def match_real_gpu(truth, report_tensors):
    """Real-GPU mode: each truth tensor, in id order, is the next report
    tensor with its name (an untagged truth tensor: the next untagged one
    of its size). The report tensors left over are the libraries' own
    allocations; they must be untagged (the programs tag every tensor they
    allocate), and a program's own kernel touching one is a difference the
    kernel checks report."""
    tmap = TensorMap(True)
    rids = sorted(report_tensors)
    pos = 0
    for tid in sorted(truth["tensors"]):
        want = truth["tensors"][tid]
        for j in range(pos, len(rids)):
            got = report_tensors[rids[j]]
            if got.get("name") == want["name"] or (
                    default_name(want["name"], tid) and default_name(got.get("name"), rids[j])
                    and got.get("bytes") == want["bytes"]):
                tmap.to_report[tid] = rids[j]
                tmap.extras.update(rids[pos:j])
                pos = j + 1
                break
        else:
            problem("tensors", f"tensor {tid} ({want['name']}, {want['bytes']} bytes) missing")
    tmap.extras.update(rids[pos:])
    for rid in sorted(tmap.extras):
        name = report_tensors[rid].get("name")
        if not default_name(name, rid):
            problem("tensors", f"report tensor {rid} ({name}) is not in the truth (a library's own tensor would be untagged)")
    allowed = [f"{rid} ({report_tensors[rid].get('bytes')} bytes)" for rid in sorted(tmap.extras)
               if default_name(report_tensors[rid].get("name"), rid)]
    if allowed:
        print(f"allowed: {len(allowed)} library-internal tensors: {', '.join(allowed[:10])}"
              + (" ..." if len(allowed) > 10 else ""))
    return tmap


def compare_truth(truth_dir, report_dir, name="dnntrace", real_gpu=False):
    """With real_gpu (compare.py truth --real-gpu): what a real GPU changes
    is let through, nothing else: times (kernel durations, estimated times
    of periods, liveness and G10 logs; checked to be numbers), the names
    of kernels a library call launched (the library chooses them), and
    tensors the program did not allocate (untagged ones: a library's own),
    which shift the tensor ids and add their bytes to live and G10 total
    memory. Kernels (order, count, names of the program's own launches,
    api), tensors, roles, touched tensors, Birth/Death and periods stay
    exact."""
    truth = load_truth(truth_dir)
    r = lambda f: os.path.join(report_dir, f)

    tensors = {int(t["id"]): t for t in read_csv(r("tensors.csv"))}
    if real_gpu:
        tmap = match_real_gpu(truth, tensors)
    else:
        tmap = TensorMap(False)
        if sorted(tensors) != sorted(truth["tensors"]):
            problem("tensors", f"tensor ids {sorted(tensors)[:10]}..., expected 0..{len(truth['tensors']) - 1}")
    extra_bytes = {rid: int(tensors[rid].get("bytes") or 0) for rid in tmap.extras}

    kernels = read_csv(r("kernels.csv"))
    if len(kernels) != len(truth["kernels"]):
        problem("kernels", f"{len(kernels)} kernels, expected {len(truth['kernels'])}")
    for want, got in zip(truth["kernels"], kernels):
        i = want["index"]
        library = is_library_kernel(want)
        # A library kernel may use its library's own tensors (a workspace).
        got_ids = lambda column: sorted(t for t in id_list(got.get(column))
                                        if not (library and t in tmap.extras))
        if got.get("index") != i:
            problem("kernels", f"row {i}: index {got.get('index')}")
        if not (real_gpu and library_named(want)) and got.get("name") != want["name"]:
            problem("kernels", f"kernel {i}: name {got.get('name')!r}, expected {want['name']!r}")
        if real_gpu and library_named(want) and not got.get("name"):
            problem("kernels", f"kernel {i} ({want.get('api')}): no name")
        if real_gpu:
            if not re.fullmatch(r"[1-9]\d*", got.get("duration_ns") or ""):
                problem("kernels", f"kernel {i}: duration {got.get('duration_ns')!r} ns, expected a time > 0")
        elif got.get("duration_ns") != want["duration_ns"]:
            problem("kernels", f"kernel {i}: duration {got.get('duration_ns')} ns, expected {want['duration_ns']}")
        if got_ids("touched") != tmap.rids(want["touched"]):
            problem("kernels", f"kernel {i} ({want['name']}): touches {got.get('touched')!r}, expected {ids_text(tmap, want['touched'])}")
        # Workloads with exact roles (truth_exact_roles) also know these.
        if "api" in want and got.get("api") != want["api"]:
            problem("kernels", f"kernel {i} ({want['name']}): api {got.get('api')!r}, expected {want['api']!r}")
        for column in ("inputs", "outputs"):
            if column in want and got_ids(column) != tmap.rids(want[column]):
                problem("roles", f"kernel {i} ({want['name']}, {want.get('api')}): {column} {got.get(column)!r}, expected {ids_text(tmap, want[column])}")
    if os.path.exists(os.path.join(truth_dir, "kernel_tensors.csv")):
        compare_kernels_config(truth, truth_dir, r("kernels.config"), tmap)

    for tid, want in truth["tensors"].items():
        got = tensors.get(tmap.rid(tid))
        if got is None:
            continue
        for field in ("name", "bytes", "first_use", "last_use", "global"):
            value = got.get(field)
            if field in ("first_use", "last_use") and value == "":
                value = "-1"  # the analyzer leaves an unused tensor's uses empty
            expected = want[field]
            if field == "name" and real_gpu and default_name(expected, tid):
                expected = f"t{tmap.rid(tid)}"
            if value != expected:
                problem("tensors", f"tensor {tid} ({want['name']}): {field} {value!r}, expected {expected!r}")

    liveness = parse_liveness_config(r("liveness_analysis.config"))
    for tid, want in truth["tensors"].items():
        got = liveness.get(tmap.rid(tid))
        if got is None:
            problem("liveness", f"tensor {tid} ({want['name']}) missing")
            continue
        same_name = got["name"] == want["name"] or (
            real_gpu and default_name(want["name"], tid) and default_name(got["name"], tmap.rid(tid)))
        if not same_name or str(got["bytes"]) != want["bytes"] or str(got["global"]) != want["global"]:
            problem("liveness", f"tensor {tid}: line says {got['name']}, {got['global']}, {got['bytes']}")
        life = truth["liveness"].get(tid)
        if life is not None and life["global"] == "0":
            expected = (int(life["birth"]), int(life["death"]))
            if (got["birth"], got["death"]) != expected:
                problem("liveness", f"tensor {tid} ({want['name']}): Birth/Death {got['birth']}/{got['death']}, expected {expected[0]}/{expected[1]}")
        elif want["global"] == "1" and got["birth"] != "global":
            problem("liveness", f"tensor {tid} ({want['name']}): not printed as Global")
        expected_periods = [(a, b, g(us)) for a, b, us, _ in truth["periods"].get(tid, [])]
        got_periods = [tuple(p) for p in got["periods"]]
        if real_gpu:
            # Where the inactive periods are is exact; their times are the
            # GPU's (a number must be printed).
            expected_periods = [p[:2] for p in expected_periods]
            if any(not is_number(p[2]) for p in got_periods):
                problem("liveness", f"tensor {tid} ({want['name']}): an Estimated Time is not a number: {got_periods[:4]}")
            got_periods = [p[:2] for p in got_periods]
        if got_periods != expected_periods:
            problem("liveness", f"tensor {tid} ({want['name']}): periods {got_periods[:4]}, expected {expected_periods[:4]}")

    all_periods = read_csv(r("periods.csv"))
    # The libraries' own tensors' periods are theirs (real-GPU mode).
    keep = [not (real_gpu and p.get("tensor", "").isdigit() and int(p["tensor"]) in tmap.extras)
            for p in all_periods]
    periods = [p for p, k in zip(all_periods, keep) if k]
    flat_truth = [(t, i, p) for t in sorted(truth["periods"]) for i, p in enumerate(truth["periods"][t])]
    if len(periods) != len(flat_truth):
        problem("periods", f"{len(periods)} rows, expected {len(flat_truth)}")
    for got, (tid, index, (a, b, us, looped)) in zip(periods, flat_truth):
        try:
            same = (int(got["tensor"]), int(got["period"]), int(got["start"]), int(got["end"]), int(got["looped"])) == (tmap.rid(tid), index, a, b, looped)
            if real_gpu:
                same = same and float(got["estimated_us"]) >= 0
            else:
                same = same and abs(float(got["estimated_us"]) - us) <= 1e-6 * max(1.0, us)
        except (KeyError, ValueError, TypeError):
            same = False
        if not same:
            problem("periods", f"row {dict(got)} expected tensor {tid} period {index}: {a}..{b} {'(any time)' if real_gpu else f'{us}us'} looped {looped}")

    # Bytes allocated when a kernel STARTS depend on how far the host ran
    # ahead of the GPU, so live_bytes is checked by bounds that hold on any
    # timeline: a running kernel's own tensors are allocated, and nothing
    # exceeds the most the program ever had allocated (plus, on a real GPU,
    # every library-internal tensor). active_bytes and G10's total are
    # exact; on a real GPU active_bytes adds the library-internal tensors
    # the kernel used, and G10's total those alive: the global ones at
    # every kernel, a local one at some.
    memory = read_csv(r("memory.csv"))
    truth_rows = [m for m in truth["memory"] if m["index"] != "peak"]
    peak_rows = [m for m in truth["memory"] if m["index"] == "peak"]
    host_peak = int(peak_rows[0]["live_bytes"]) if peak_rows else None
    if host_peak is not None:
        host_peak += sum(extra_bytes.values())
    extra_active = [sum(extra_bytes[t] for t in set(id_list(k.get("touched"))) & tmap.extras) for k in kernels]
    extra_active += [0] * (len(truth_rows) - len(extra_active))
    want_active = [int(m["active_bytes"]) + extra for m, extra in zip(truth_rows, extra_active)]
    if len(memory) != len(truth_rows):
        problem("memory", f"{len(memory)} rows, expected {len(truth_rows)}")
    for got, want, active in zip(memory, truth_rows, want_active):
        if (got.get("index"), got.get("active_bytes")) != (want["index"], str(active)):
            problem("memory", f"kernel {want['index']}: active {got.get('active_bytes')}, expected {active}")
        try:
            live = int(got.get("live_bytes"))
        except (TypeError, ValueError):
            problem("memory", f"kernel {want['index']}: live_bytes {got.get('live_bytes')!r}")
            continue
        if live < int(want["active_bytes"]) or (host_peak is not None and live > host_peak):
            problem("memory", f"kernel {want['index']}: live {live} bytes outside [{want['active_bytes']}, {host_peak}]")

    logs = parse_python_lists(r(f"{name}_TensorPeriodLog.py"))
    sizes = [int(truth["tensors"][t]["bytes"]) for t, _, _ in flat_truth]
    times = [p[2] for _, _, p in flat_truth]
    got_sizes, got_times = logs.get("sd_size"), logs.get("sd_time")
    if real_gpu:
        # One entry per periods.csv row, in its order: the program's rows.
        if not isinstance(got_sizes, list) or len(got_sizes) != len(keep):
            problem("g10-logs", f"sd_size has {len(got_sizes) if isinstance(got_sizes, list) else got_sizes} entries, periods.csv {len(keep)} rows")
        else:
            got_sizes = [s for s, k in zip(got_sizes, keep) if k]
        if not isinstance(got_times, list) or len(got_times) != len(keep) or not all(is_number(x) for x in got_times):
            problem("g10-logs", f"sd_time {str(got_times)[:80]}, expected {len(keep)} times")
    if got_sizes != sizes:
        problem("g10-logs", f"sd_size {str(got_sizes)[:80]}, expected {str(sizes)[:80]}")
    # G10 prints these with C++ iostream defaults (%g, 6 significant digits).
    if not real_gpu and (not isinstance(got_times, list) or len(got_times) != len(times) or any(
            float(x) != float(g(y)) for x, y in zip(got_times, times))):
        problem("g10-logs", f"sd_time {str(got_times)[:80]}, expected {str(times)[:80]}")
    consumption = parse_python_lists(r(f"{name}_NNMemConsumptionLog.py"))
    want_total = [int(m["g10_total_bytes"]) for m in truth_rows]
    got_total = consumption.get("total")
    if real_gpu and isinstance(got_total, list) and len(got_total) == len(want_total):
        global_extras = sum(b for t, b in extra_bytes.items() if tensors[t].get("global") == "1")
        if any(not (w + global_extras <= x <= w + sum(extra_bytes.values())) for x, w in zip(got_total, want_total)):
            problem("g10-logs", f"total {str(got_total)[:80]} is not the truth's {str(want_total)[:80]} plus the library-internal tensors alive")
    elif got_total != want_total:
        problem("g10-logs", f"total {str(got_total)[:80]} differs from memory truth")
    if consumption.get("active") != want_active:
        problem("g10-logs", f"active {str(consumption.get('active'))[:80]} differs from memory truth")
    for f in ("kernels.config", "tensors.config", "summary.txt"):
        if not os.path.exists(r(f)):
            problem("files", f"missing {r(f)}")


def is_number(text):
    try:
        float(text)
        return True
    except (TypeError, ValueError):
        return False


def ids_text(tmap, text):
    """The truth's id list as the messages print it; in real-GPU mode with
    the report's ids it stands for."""
    if not tmap.real_gpu or tmap.rids(text) == sorted(id_list(text)):
        return repr(text)
    return f"{text!r} (report ids {' '.join(str(t) for t in tmap.rids(text))})"


def compare_g10(ref_dir, truth_dir, report_dir):
    """Analyzer liveness vs G10's published liveness, tensors matched by name."""
    truth = load_truth(truth_dir)
    ref = parse_liveness_config(os.path.join(ref_dir, "liveness_analysis.config"))
    got = parse_liveness_config(os.path.join(report_dir, "liveness_analysis.config"))
    got_by_name = {t["name"]: (tid, t) for tid, t in got.items()}
    if len(got) != len(ref):
        problem("g10", f"{len(got)} tensors, G10 has {len(ref)}")
    for ref_id, want in ref.items():
        match = got_by_name.get(want["name"])
        if match is None:
            problem("g10", f"G10 tensor{ref_id} {want['name']} missing")
            continue
        tid, have = match
        if (have["bytes"], have["global"]) != (want["bytes"], want["global"]):
            problem("g10", f"{want['name']}: size/global {have['bytes']}/{have['global']}, G10 {want['bytes']}/{want['global']}")
        if (have["birth"], have["death"]) != (want["birth"], want["death"]):
            problem("g10", f"{want['name']}: Birth/Death {have['birth']}/{have['death']}, G10 {want['birth']}/{want['death']}")
        if [p[:2] for p in have["periods"]] != [p[:2] for p in want["periods"]]:
            problem("g10", f"{want['name']}: periods {[p[:2] for p in have['periods']][:4]}, G10 {[p[:2] for p in want['periods']][:4]}")
        # G10's times come from its own per-op timings (unpublished); ours
        # from the durations g10_replay chose, summed in the truth.
        expected_times = [g(us) for _, _, us, _ in truth["periods"].get(tid, [])]
        if [p[2] for p in have["periods"]] != expected_times:
            problem("g10", f"{want['name']}: Estimated Times {[p[2] for p in have['periods']][:4]}, expected {expected_times[:4]}")


# ---- babeltrace2 text output ------------------------------------------------

EVENT = re.compile(r"^\[[^\]]*\] (?:\([^)]*\) )?\S+ (dnntrace_\w+:\w+): (.*)$")
FIELD = re.compile(r'(\w+) = (\( "([^"]*)" : container = -?\d+ \)|"(?:[^"\\]|\\.)*"|\[ (?:\[\d+\] = [^,\]]+(?:, )?)*\]|[^,}]+)')


def parse_value(raw, label):
    if label is not None:
        return label
    raw = raw.strip()
    if raw.startswith('"'):
        return raw[1:-1]
    if raw.startswith("["):
        return [int(v, 0) for v in re.findall(r"\[\d+\] = (-?(?:0x)?[0-9a-fA-F]+)", raw)]
    try:
        return int(raw, 0)
    except ValueError:
        return raw


def parse_trace_text(path):
    events = []
    with open(path) as f:
        for line in f:
            m = EVENT.match(line.rstrip("\n"))
            if not m:
                continue
            fields = {}
            for fm in FIELD.finditer(m[2]):
                fields[fm[1]] = parse_value(fm[2], fm[3])
            fields["event"] = m[1]
            events.append(fields)
    name_launches(events)
    name_kernel_records(events)
    kinds = catalogue.memory_kinds()
    for e in events:   # format 3's alloc events carry the api, not the kind
        if e["event"] in ALLOCS and "kind" not in e:
            e["kind"] = kinds.get(e.get("api"))
    return events


def name_by_id(events, named_event, id_field, naming_event):
    """Each named_event without a "name" gets the name of the naming_event
    with its id_field in the same process (resolved at the end, as the
    analyzer does; "" when none came)."""
    names = {}
    for e in events:
        if e["event"] == naming_event:
            names.setdefault((e.get("vpid"), e[id_field]), e["name"])
    for e in events:
        if e["event"] == named_event and "name" not in e:
            e["name"] = names.get((e.get("vpid"), e.get(id_field)), "")


def name_launches(events):
    """Trace format 2 on: a launch carries its kernel's function_id, named by
    the dnntrace_api:function event with that id, as format 1 carried it."""
    name_by_id(events, "dnntrace_api:launch", "function_id", "dnntrace_api:function")


def name_kernel_records(events):
    """Trace format 3: a GPU kernel record carries a name_id, named by the
    dnntrace_gpu:kernel_name event with that id, as formats 1 and 2 carried it."""
    name_by_id(events, "dnntrace_gpu:kernel", "name_id", "dnntrace_gpu:kernel_name")


def compare_stress(truth_dir, trace_text, report_dir):
    actions = read_csv(os.path.join(truth_dir, "threads.csv"))
    events = [e for e in parse_trace_text(trace_text)
              if e["event"] in ALLOCS + FREES + ("dnntrace_api:launch",)]
    ptr_of_id = {e["tensor_id"]: e["ptr"] for e in events if e["event"] in ALLOCS and e["tensor_id"] >= 0}
    traced = {}
    for e in events:
        tid = e.get("vtid")
        if e["event"] in ALLOCS:
            traced.setdefault(tid, []).append(("alloc", (e["ptr"],), e["bytes"]))
        elif e["event"] == "dnntrace_api:launch":
            traced.setdefault(tid, []).append(("launch", tuple(ptr_of_id.get(t, -1) for t in e["tensors"]), 0))
        else:
            # a free names the tensor it ended (format 3: no pointer): its address
            traced.setdefault(tid, []).append(("free", (ptr_of_id.get(e["tensor_id"], -1),), 0))
    expected = {}
    for a in sorted(actions, key=lambda a: (int(a["tid"]), int(a["seq"]))):
        expected.setdefault(int(a["tid"]), []).append(
            (a["action"], tuple(int(p) for p in a["ptrs"].split()), int(a["bytes"])))
    if sorted(traced) != sorted(expected):
        problem("stress", f"traced threads {sorted(traced)}, expected {sorted(expected)}")
    for tid, want in expected.items():
        have = traced.get(tid, [])
        if have != want:
            first = next((i for i, (x, y) in enumerate(zip(have, want)) if x != y), min(len(have), len(want)))
            problem("stress", f"thread {tid}: action {first} traced {have[first:first + 1]} expected {want[first:first + 1]} ({len(have)} vs {len(want)} actions)")
    ids = [e["tensor_id"] for e in events if e["event"] in ALLOCS]
    if sorted(ids) != list(range(len(ids))):
        problem("stress", "tensor ids are not 0..N-1, each once")
    tensors = {int(t["id"]): int(t["bytes"]) for t in read_csv(os.path.join(report_dir, "tensors.csv"))}
    traced_bytes = {e["tensor_id"]: e["bytes"] for e in events if e["event"] in ALLOCS}
    if tensors != traced_bytes:
        problem("stress", f"analyzer tensors.csv: {len(tensors)} tensors, trace {len(traced_bytes)} (or sizes differ)")
    kernels = read_csv(os.path.join(report_dir, "kernels.csv"))
    launches = sorted(tuple(sorted(e["tensors"])) for e in events if e["event"] == "dnntrace_api:launch")
    touched = sorted(tuple(sorted(id_list(k.get("touched")))) for k in kernels)
    if touched != launches or len(kernels) != sum(1 for a in actions if a["action"] == "launch"):
        problem("stress", f"analyzer kernels.csv: {len(kernels)} kernels or their tensors differ from the {len(launches)} launches")


def compare_failed(truth_dir, trace_text, report_dir):
    compare_truth(truth_dir, report_dir)
    failed = read_csv(os.path.join(truth_dir, "failed.csv"))[0]
    requested = int(failed["requested_bytes"])
    allocs = [e for e in parse_trace_text(trace_text) if e["event"] in ALLOCS]
    # format 3: a failed allocation's bytes are what was asked for
    refused = [e for e in allocs if e.get("bytes") == requested and e.get("result") != 0]
    if len(refused) != 1:
        problem("failed", f"{len(refused)} alloc events of {requested} bytes, expected 1")
    else:
        e = refused[0]
        if e.get("tensor_id") != -1 or e.get("result") != int(failed["result"]):
            problem("failed", f"refused allocation traced as tensor {e.get('tensor_id')} result {e.get('result')}, expected -1 and {failed['result']}")
    if [e["tensor_id"] for e in allocs if e is not None and e.get("result") == 0] != [0, 1]:
        problem("failed", "successful allocations are not tensors 0 and 1")


# What a pinned.csv call is traced as (tests/workloads/host_register.c).
PINNED_EVENTS = {"alloc": "dnntrace_api:alloc", "register": "dnntrace_api:alloc",
                 "free": "dnntrace_api:free", "unregister": "dnntrace_api:free"}


def compare_host(truth_dir, trace_text, report_dir):
    """Every call that pins or unpins host memory is one event of its api and
    result, tensor -1, in program order, and one timeline.json slice; a
    pinning's ptr is the buffer the program's copies name (0 when refused)
    and its bytes what was asked; the summary's pinned, registered and
    failed lines add up the successful and refused calls; registered memory
    is no tensor (the truth's reports)."""
    compare_truth(truth_dir, report_dir)
    calls = read_csv(os.path.join(truth_dir, "pinned.csv"))
    events = parse_trace_text(trace_text)
    kinds = catalogue.memory_kinds()
    traced = [e for e in events if e["event"] in ALLOCS + FREES
              and kinds.get(e.get("api")) == "pinned_host"]
    if len(traced) != len(calls):
        problem("host", f"{len(traced)} pinned host memory events, expected {len(calls)}: "
                f"{[e.get('api') for e in traced]}")
    ptr_of = {}
    for i, (e, c) in enumerate(zip(traced, calls)):
        want = (PINNED_EVENTS[c["call"]], c["api"], int(c["result"]), -1)
        have = (e["event"], e.get("api"), e.get("result"), e.get("tensor_id"))
        if have != want:
            problem("host", f"call {i}: traced {have}, expected {want}")
            continue
        if e["event"] != "dnntrace_api:alloc":
            continue
        if e.get("bytes") != int(c["bytes"]):
            problem("host", f"call {i} ({c['api']}): {e.get('bytes')} bytes, expected {c['bytes']}")
        if (e.get("ptr") != 0) != (int(c["result"]) == 0):
            problem("host", f"call {i} ({c['api']} result {c['result']}): ptr {e.get('ptr')}")
        if int(c["result"]) == 0:
            ptr_of[c["buffer"]] = e.get("ptr")
    # the host side of each copy is the memory the pinning event named
    copies = read_csv(os.path.join(truth_dir, "copies.csv"))
    memcpys = [e for e in events if e["event"] == "dnntrace_api:memcpy"]
    if len(memcpys) != len(copies):
        problem("host", f"{len(memcpys)} memcpy events, expected {len(copies)}")
    for i, (e, c) in enumerate(zip(memcpys, copies)):
        host = e.get("src") if c["direction"] == "HtoD" else e.get("dst")
        if c["buffer"] not in ptr_of or host != ptr_of[c["buffer"]]:
            problem("host", f"copy {i} ({c['direction']}): host address {host}, the "
                    f"registration of {c['buffer']} traced {ptr_of.get(c['buffer'])}")
    # the timeline shows each call on its thread, named for its api, with its result
    timeline = os.path.join(report_dir, "timeline.json")
    if not os.path.exists(timeline):
        problem("files", f"missing {timeline}")
    else:
        names = {c["api"] for c in calls}
        slices = sorted((e for e in json.load(open(timeline))["traceEvents"]
                         if e.get("ph") == "X" and e.get("name") in names),
                        key=lambda e: e["ts"])
        have = [(e["name"], e.get("args", {}).get("result")) for e in slices]
        want = [(c["api"], int(c["result"])) for c in calls]
        if have != want:
            problem("host", f"timeline.json slices {have}, expected {want}")
    ok = [c for c in calls if int(c["result"]) == 0]
    pinned = [c for c in ok if c["call"] in ("alloc", "register")]
    registered = [c for c in ok if c["call"] == "register"]
    unregistered = [c for c in ok if c["call"] == "unregister"]
    refused = [c for c in calls if c["call"] in ("alloc", "register") and int(c["result"]) != 0]
    path = os.path.join(report_dir, "summary.txt")
    if not os.path.exists(path):
        problem("files", f"missing {path}")
        return
    lines = open(path).read().splitlines()
    for want in (
            f"failed allocations: {len(refused)}",
            f"pinned host memory: {sum(int(c['bytes']) for c in pinned)} bytes in "
            f"{len(pinned)} allocations",
            f"registered host memory: {sum(int(c['bytes']) for c in registered)} bytes in "
            f"{len(registered)} registrations, {len(unregistered)} unregistered "
            "(cudaHostRegister, cuMemHostRegister; part of the pinned host memory)"):
        if want not in lines:
            problem("host", f"summary.txt lacks: {want}")


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    mode, args = argv[1], argv[2:]
    if mode == "truth" and args[:1] == ["--real-gpu"] and len(args) in (3, 4):
        compare_truth(*args[1:], real_gpu=True)
    elif mode == "truth" and len(args) in (2, 3):
        compare_truth(*args)
    elif mode == "g10" and len(args) == 3:
        compare_g10(*args)
    elif mode == "stress" and len(args) == 3:
        compare_stress(*args)
    elif mode == "failed" and len(args) == 3:
        compare_failed(*args)
    elif mode == "host" and len(args) == 3:
        compare_host(*args)
    elif mode == "trace-text" and len(args) == 1:
        for e in parse_trace_text(args[0]):
            print(e)
        return 0
    else:
        print(f"compare.py: bad arguments {argv[1:]}", file=sys.stderr)
        return 2
    if problems:
        print(f"{len(problems)} differences ({', '.join(checks())})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
