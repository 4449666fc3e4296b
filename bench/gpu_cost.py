#!/usr/bin/env python3
"""gpu_cost.py: what tracing costs a training step and a call on this
machine's GPU (make bench-gpu, through bench/real_gpu.sh, which checks the
machine, builds real_gpu_cost and runs this inside a private LTTng session
daemon). Never part of make test; its logic is tested there on simgpu and
with canned timings (tests/scripts/test_bench_gpu.sh).

  gpu_cost.py run BUILD_DIR REAL_GPU_COST OUT_MD   measure, print the table,
                                                   write it to OUT_MD and the
                                                   raw figures to OUT_MD.json
  gpu_cost.py table RESULTS_JSON                   print the table of saved
                                                   figures

Each round runs every configuration once, in an order rotated by one each
round (interleaved: a drift of the machine spreads over all of them):
bare; bare with PyTorch's cudaMallocAsync allocator (what `dnntrace record`
sets by default, to tell its effect from the tracer's); `dnntrace record`
with --gpu-records=off, kernels, work (the default) and full, and the
default with --allocator=keep (PyTorch's own allocator); bare inside
torch.profiler (CPU and CUDA activities). The training step is
bench/train_step.py (both models in one process); the per-call split is
real_gpu_cost launch and alloc, bare and under each --gpu-records mode.
Every figure is a ratio to (or, per call, a difference from) the bare run
of the SAME round; the table gives the median and the min-max over rounds.
After the rounds, the last round's traces of kernels, work and full are
analyzed: how many kernels are linked to their launch, and the mode the
summary names (a mode that fell back to full would show).

Environment:
  DNNTRACE_BENCH_GPU_SIMGPU=1     simgpu, no GPU nor PyTorch: the steps are
                                  real_gpu_cost's C stand-in, the profiler
                                  row is n/a (tests this script)
  DNNTRACE_BENCH_GPU_ROUNDS       rounds (default 5), fewer if the deadline
                                  comes first (always at least 1)
  DNNTRACE_BENCH_GPU_DEADLINE     seconds from DNNTRACE_BENCH_GPU_T0 (epoch
                                  seconds; default this script's start) by
                                  which everything must end (default 480): no
                                  round starts that would not end, with the
                                  analyses' 60 s, by then (judged by the
                                  longest round so far); an analysis gets
                                  what is left (at least 15 s) and none starts
                                  past it
  DNNTRACE_BENCH_GPU_STEPS        train_step.py --steps (LW:LN,GW:GN;
                                  default 50:400,10:40); on simgpu, N of
                                  real_gpu_cost steps (default 20)
  DNNTRACE_BENCH_GPU_CALLS        N of real_gpu_cost per call kind, as
                                  launch:N,alloc:N (default
                                  launch:20000,alloc:10000)
  DNNTRACE_BENCH_GPU_BATCH        train_step.py --gpu-batch (the GPU-bound
                                  model's batch; default train_step.py's)
  DNNTRACE_BENCH_GPU_PYTHON       the python with torch (default python3)
  DNNTRACE_BENCH_GPU_WORK         scratch directory (default a new one,
                                  removed at the end)
Must never kill a process it did not start, nor leave a trace behind
outside its scratch directory.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MODES = ("off", "kernels", "work", "full")
ANALYSIS_RESERVE_S = 60  # what the rounds leave before the deadline for check_links
DEFAULT_MODE = "work"  # tracepoints/gpu_records.h, DNNTRACE_GPU_RECORDS_DEFAULT

# (key, label); the order of the table's rows
STEP_CONFIGS = [("bare", "bare"),
                ("bare_async", "bare, PyTorch's cudaMallocAsync allocator")] + \
    [(f"dnntrace_{m}", f"dnntrace record --gpu-records={m}" + (" (default)" if m == DEFAULT_MODE else ""))
     for m in MODES] + \
    [("dnntrace_keep", f"dnntrace record --gpu-records={DEFAULT_MODE} --allocator=keep"),
     ("profiler", "torch.profiler (CPU + CUDA activities)")]
CALL_CONFIGS = ["bare"] + [f"dnntrace_{m}" for m in MODES]
CALLS = ("launch", "alloc")
MODELS = ("launch_bound", "gpu_bound")


# ---- the table (pure functions of the saved figures) -----------------------

def paired(values, bare, combine):
    """combine(value, bare) for each round where both are numbers."""
    return [combine(v, b) for v, b in zip(values or [], bare or [])
            if isinstance(v, (int, float)) and isinstance(b, (int, float)) and b > 0]


def spread(values):
    """(min, median, max) of values, or None when there are none."""
    if not values:
        return None
    return min(values), statistics.median(values), max(values)


def ratio_cell(values, bare):
    s = spread(paired(values, bare, lambda v, b: v / b))
    if s is None:
        return "failed" if values else "n/a"
    return f"x{s[1]:.3f} ({s[0]:.3f}-{s[2]:.3f})"


def absolute_cell(values, unit_scale, unit):
    s = spread([v * unit_scale for v in values or [] if isinstance(v, (int, float))])
    if s is None:
        return "failed" if values else "n/a"
    return f"{s[1]:.4g} {unit} ({s[0]:.4g}-{s[2]:.4g})"


def added_cell(values, bare):
    s = spread(paired(values, bare, lambda v, b: v - b))
    if s is None:
        return "failed" if values else "n/a"
    return f"{s[1]:+.0f} ns ({s[0]:+.0f} to {s[2]:+.0f})"


def render(results):
    """The markdown table (and its heading lines) of saved figures."""
    steps, calls = results.get("steps", {}), results.get("calls", {})
    linked = results.get("linked", {})
    models = results.get("models", {})
    lines = [
        f"dnntrace on {results.get('device', '?')}: {results.get('rounds_done', 0)} rounds "
        f"(interleaved), torch {results.get('torch', 'n/a')}, {results.get('date', '')}",
        "",
        "Step columns: time per training step relative to bare in the same round, median "
        "(min-max over rounds); bare row: ms per step. Call columns: ns added to one "
        "call over bare in the same round; bare row: ns per call (best of 5 inner rounds each).",
        "",
        f"| configuration | launch-bound step: {models.get('launch_bound', '?')} "
        f"| GPU-bound step: {models.get('gpu_bound', '?')} "
        "| `<<<>>>` launch | cudaMalloc+cudaFree | kernels linked (last round) |",
        "|---|---|---|---|---|---|",
    ]
    bare_steps = steps.get("bare", {})
    bare_calls = calls.get("bare", {})
    for key, label in STEP_CONFIGS:
        row = [label]
        for model in MODELS:
            values = steps.get(key, {}).get(model)
            if key == "bare":
                row.append(absolute_cell(values, 1e3, "ms"))
            else:
                row.append(ratio_cell(values, bare_steps.get(model)))
        for call in CALLS:
            values = calls.get(key, {}).get(call)
            if key not in CALL_CONFIGS:
                row.append("-")
            elif key == "bare":
                row.append(absolute_cell(values, 1, "ns"))
            else:
                row.append(added_cell(values, bare_calls.get(call)))
        row.append(linked.get(key, "-"))
        lines.append("| " + " | ".join(row) + " |")
    for note in results.get("notes", []):
        lines.append("")
        lines.append(note)
    return "\n".join(lines) + "\n"


# ---- the measuring ---------------------------------------------------------

def another_round(done, rounds, left, longest):
    """Whether round done+1 of rounds starts, left seconds before the
    deadline, the longest round so far having taken longest seconds: the
    first always; a later one only if it and the analyses fit."""
    if done >= rounds:
        return False
    return done == 0 or left >= longest + ANALYSIS_RESERVE_S


class Bench:
    def __init__(self, build, real_gpu_cost, out_md):
        self.build = os.path.abspath(build)
        self.root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        self.dnntrace = os.path.join(self.root, "scripts", "dnntrace")
        self.real_gpu_cost = os.path.abspath(real_gpu_cost)
        self.out_md = out_md
        self.simgpu = os.environ.get("DNNTRACE_BENCH_GPU_SIMGPU") == "1"
        self.python = os.environ.get("DNNTRACE_BENCH_GPU_PYTHON", "python3")
        self.t0 = float(os.environ.get("DNNTRACE_BENCH_GPU_T0") or time.time())
        self.deadline = float(os.environ.get("DNNTRACE_BENCH_GPU_DEADLINE") or 480)
        self.rounds = int(os.environ.get("DNNTRACE_BENCH_GPU_ROUNDS") or 5)
        self.steps = os.environ.get("DNNTRACE_BENCH_GPU_STEPS") or ("20" if self.simgpu else "50:400,10:40")
        self.calls = dict(part.split(":") for part in
                          (os.environ.get("DNNTRACE_BENCH_GPU_CALLS") or "launch:20000,alloc:10000").split(","))
        given = os.environ.get("DNNTRACE_BENCH_GPU_WORK")
        self.work = given or tempfile.mkdtemp(prefix="dnntrace-bench-gpu.")
        self.keep_work = bool(given)
        os.makedirs(self.work, exist_ok=True)
        self.env = dict(os.environ, DNNTRACE_BUILD=self.build, DNNTRACE_PLOTS="0")
        if self.simgpu:
            lib = os.path.join(self.build, "simgpu", "lib")
            self.env["LD_LIBRARY_PATH"] = lib + (":" + self.env["LD_LIBRARY_PATH"]
                                                 if self.env.get("LD_LIBRARY_PATH") else "")
        self.results = {"steps": {}, "calls": {}, "linked": {}, "notes": [], "models": {},
                        "rounds_done": 0, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}

    def left(self):
        return self.deadline - (time.time() - self.t0)

    def log(self, text):
        print(f"bench-gpu: {text}", file=sys.stderr, flush=True)

    def command(self, key, program, name):
        """(argv, env, trace dir or None) of one run of program under config key."""
        env = dict(self.env)
        if key == "bare_async":
            conf = env.get("PYTORCH_CUDA_ALLOC_CONF")
            env["PYTORCH_CUDA_ALLOC_CONF"] = (conf + "," if conf else "") + "backend:cudaMallocAsync"
        if key == "profiler":
            program = program + ["--profiler"]
        if not key.startswith("dnntrace_"):
            return program, env, None
        mode = key[len("dnntrace_"):]
        extra = []
        if mode == "keep":
            # the default mode with the program's own allocator: the
            # tracer's cost apart from the allocator record switches to
            mode, extra = DEFAULT_MODE, ["--allocator=keep"]
        trace = os.path.join(self.work, "traces", f"{name}.{key}")
        shutil.rmtree(trace, ignore_errors=True)
        argv = [self.dnntrace, "record"] + (["--simgpu"] if self.simgpu else []) + \
            [f"--gpu-records={mode}"] + extra + ["-o", trace, "--"] + program
        return argv, env, trace

    def run(self, key, program, name):
        """stdout of one run, or None (the reason logged)."""
        argv, env, _ = self.command(key, program, name)
        limit = max(30, min(240, self.left()))
        err = os.path.join(self.work, f"{name}.{key}.err")
        try:
            with open(err, "w") as err_file:
                done = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=err_file,
                                      stdin=subprocess.DEVNULL, timeout=limit, text=True)
        except subprocess.TimeoutExpired:
            self.log(f"{name} {key}: killed after {limit:.0f} s")
            return None
        if done.returncode != 0:
            with open(err) as f:
                tail = f.read().strip().splitlines()[-2:]
            self.log(f"{name} {key}: exit {done.returncode}: {' / '.join(tail)}")
            return None
        return done.stdout

    def step_program(self):
        if self.simgpu:
            return [self.real_gpu_cost, "steps", self.steps]
        command = [self.python, os.path.join(self.root, "bench", "train_step.py"), "--steps", self.steps]
        if os.environ.get("DNNTRACE_BENCH_GPU_BATCH"):
            command += ["--gpu-batch", os.environ["DNNTRACE_BENCH_GPU_BATCH"]]
        return command

    def one_round(self, r):
        keys = [k for k, _ in STEP_CONFIGS if not (self.simgpu and k in ("profiler", "bare_async"))]
        keys = keys[r % len(keys):] + keys[:r % len(keys)]
        for key in keys:
            out = self.run(key, self.step_program(), "steps")
            figures = None
            if out:
                try:
                    figures = json.loads(out.strip().splitlines()[-1])
                except (ValueError, IndexError):
                    self.log(f"steps {key}: no JSON line: {out[-200:]!r}")
            for model in MODELS:
                value = figures[model]["s_per_step"] if figures else None
                self.results["steps"].setdefault(key, {}).setdefault(model, []).append(value)
                if figures:
                    self.results["models"][model] = figures[model]["model"]
            if figures and "torch" in figures:
                self.results["torch"] = figures["torch"]
        call_keys = CALL_CONFIGS[r % len(CALL_CONFIGS):] + CALL_CONFIGS[:r % len(CALL_CONFIGS)]
        for key in call_keys:
            for call in CALLS:
                if call not in self.calls:
                    continue
                out = self.run(key, [self.real_gpu_cost, call, self.calls[call]], call)
                try:
                    value = float(out.strip().splitlines()[-1]) if out else None
                except (ValueError, IndexError):
                    value = None
                self.results["calls"].setdefault(key, {}).setdefault(call, []).append(value)

    def check_links(self):
        """Analyzes the last round's step traces of the CUPTI modes."""
        for mode in ("kernels", "work", "full"):
            key = f"dnntrace_{mode}"
            trace = os.path.join(self.work, "traces", f"steps.{key}")
            if not os.path.isdir(trace):
                self.results["linked"][key] = "no trace"
                continue
            if self.left() <= 0:
                self.results["linked"][key] = "not analyzed: deadline"
                continue
            report = os.path.join(self.work, "reports", key)
            shutil.rmtree(report, ignore_errors=True)
            os.makedirs(os.path.dirname(report), exist_ok=True)
            try:
                done = subprocess.run([self.dnntrace, "analyze", trace, "-o", report], env=self.env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                      timeout=max(15, self.left()))
            except subprocess.TimeoutExpired:
                self.results["linked"][key] = "not analyzed: deadline"
                continue
            if done.returncode != 0:
                self.results["linked"][key] = f"analyze failed: {done.stderr.strip()[-60:]}"
                continue
            import csv
            with open(os.path.join(report, "kernels.csv")) as f:
                rows = list(csv.DictReader(f))
            with_api = sum(1 for row in rows if row.get("api"))
            recorded = "?"
            with open(os.path.join(report, "summary.txt")) as f:
                for line in f:
                    if line.startswith("gpu records: "):
                        recorded = line[len("gpu records: "):].split(" ")[0]
            self.results["linked"][key] = f"{with_api} of {len(rows)} ({recorded})"

    def device(self):
        if self.simgpu:
            return "simgpu (DNNTRACE_BENCH_GPU_SIMGPU=1: no GPU; figures mean nothing)"
        try:
            out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                                 stdout=subprocess.PIPE, text=True, timeout=30).stdout
            return out.strip().splitlines()[0].replace(", ", ", driver ")
        except (OSError, subprocess.SubprocessError, IndexError):
            return "an NVIDIA GPU (nvidia-smi did not answer)"

    def main(self):
        self.results["device"] = self.device()
        longest = 0.0
        for r in range(self.rounds):
            if not another_round(r, self.rounds, self.left(), longest):
                self.results["notes"].append(
                    f"{r} of {self.rounds} rounds: the deadline ({self.deadline:.0f} s) left no time for more.")
                break
            start = time.time()
            self.log(f"round {r + 1} of {self.rounds} ({self.left():.0f} s left)")
            self.one_round(r)
            self.results["rounds_done"] = r + 1
            longest = max(longest, time.time() - start)
        self.check_links()
        table = render(self.results)
        sys.stdout.write(table)
        with open(self.out_md, "w") as f:
            f.write(table)
        with open(self.out_md + ".json", "w") as f:
            json.dump(self.results, f, indent=1)
        if not self.keep_work:
            shutil.rmtree(self.work, ignore_errors=True)
        bare = self.results["steps"].get("bare", {}).get("launch_bound", [])
        return 0 if any(isinstance(v, float) for v in bare) else 1


def main(argv):
    if len(argv) == 3 and argv[1] == "table":
        try:
            with open(argv[2]) as f:
                results = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit(f"gpu_cost: cannot read {argv[2]}: {e}")
        sys.stdout.write(render(results))
        return 0
    if len(argv) == 5 and argv[1] == "run":
        return Bench(argv[2], argv[3], argv[4]).main()
    sys.exit("usage: gpu_cost.py run BUILD_DIR REAL_GPU_COST OUT_MD | gpu_cost.py table RESULTS_JSON")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
