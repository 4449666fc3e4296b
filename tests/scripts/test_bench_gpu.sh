#!/usr/bin/env bash
# make bench-gpu without a GPU: (1) the table bench/gpu_cost.py prints from
# canned figures, every cell computed here by hand (ratios and differences
# paired by round, a round whose bare run failed left out, median and
# min-max, failed vs never run), and the deadline's rule for another
# round; (2) the whole measuring path on simgpu (DNNTRACE_BENCH_GPU_SIMGPU=1:
# real_gpu_cost's C stand-in for the models, dnntrace record with each
# --gpu-records mode, one round, the last traces analyzed: every kernel the
# stand-in launched, 408, linked in kernels, work and full, each trace
# naming its mode); (3) the refusal in one line, exit 77, on a machine
# without a GPU.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
gpu_cost="$DNNTRACE_ROOT/bench/gpu_cost.py"
# expect FILE <<< its content, byte for byte
expect() {
	cat >"$TEST_TMP/expected"
	cmp -s "$TEST_TMP/expected" "$1" || { diff "$TEST_TMP/expected" "$1" | head -20; fail "$1: not the table expected"; }
}

# ---- (1) canned figures
cat >"$TEST_TMP/canned.json" <<'JSON'
{"device": "canned GPU", "torch": "9.9", "date": "D", "rounds_done": 3,
 "models": {"launch_bound": "MLP", "gpu_bound": "ResNet"},
 "steps": {
  "bare": {"launch_bound": [0.002, 0.004, null], "gpu_bound": [0.01, 0.01, 0.01]},
  "dnntrace_work": {"launch_bound": [0.0022, 0.0048, 0.003], "gpu_bound": [0.0105, 0.0101, 0.0102]},
  "dnntrace_full": {"launch_bound": [null, null, null]},
  "dnntrace_keep": {"launch_bound": [0.0021, 0.0048, 0.005], "gpu_bound": [0.0101, 0.0103, 0.0102]},
  "profiler": {"launch_bound": [0.003, 0.006, 0.004], "gpu_bound": [0.02, null, 0.011]}},
 "calls": {
  "bare": {"launch": [3000, 3500, 4000], "alloc": [2100, 2200, null]},
  "dnntrace_work": {"launch": [5000, 5600, 6200], "alloc": [6100, 6000, 7000]}},
 "linked": {"dnntrace_work": "100 of 100 (work)"},
 "notes": ["a note"]}
JSON
python3 "$gpu_cost" table "$TEST_TMP/canned.json" >"$TEST_TMP/canned.md" || fail "table from canned figures failed"
expect "$TEST_TMP/canned.md" <<'X'
dnntrace on canned GPU: 3 rounds (interleaved), torch 9.9, D

Step columns: time per training step relative to bare in the same round, median (min-max over rounds); bare row: ms per step. Call columns: ns added to one call over bare in the same round; bare row: ns per call (best of 5 inner rounds each).

| configuration | launch-bound step: MLP | GPU-bound step: ResNet | `<<<>>>` launch | cudaMalloc+cudaFree | kernels linked (last round) |
|---|---|---|---|---|---|
| bare | 3 ms (2-4) | 10 ms (10-10) | 3500 ns (3000-4000) | 2150 ns (2100-2200) | - |
| bare, PyTorch's cudaMallocAsync allocator | n/a | n/a | - | - | - |
| dnntrace record --gpu-records=off | n/a | n/a | n/a | n/a | - |
| dnntrace record --gpu-records=kernels | n/a | n/a | n/a | n/a | - |
| dnntrace record --gpu-records=work (default) | x1.150 (1.100-1.200) | x1.020 (1.010-1.050) | +2100 ns (+2000 to +2200) | +3900 ns (+3800 to +4000) | 100 of 100 (work) |
| dnntrace record --gpu-records=full | failed | n/a | n/a | n/a | - |
| dnntrace record --gpu-records=work --allocator=keep | x1.125 (1.050-1.200) | x1.020 (1.010-1.030) | - | - | - |
| torch.profiler (CPU + CUDA activities) | x1.500 (1.500-1.500) | x1.550 (1.100-2.000) | - | - | - |

a note
X
echo '{not json' >"$TEST_TMP/bad.json"
python3 "$gpu_cost" table "$TEST_TMP/bad.json" >/dev/null 2>"$TEST_TMP/bad.err" && fail "a broken results file was accepted"
[ "$(wc -l <"$TEST_TMP/bad.err")" = 1 ] || fail "a broken results file: want one line: $(cat "$TEST_TMP/bad.err")"

# the rounds the deadline allows: the first always, then only one that fits
# with the analyses' 60 s
python3 - "$DNNTRACE_ROOT/bench" <<'PY' || fail "the deadline's rule for another round"
import sys
sys.path.insert(0, sys.argv[1])
from gpu_cost import another_round
cases = [((0, 5, -100, 0), True), ((1, 5, 159, 100), False), ((1, 5, 160, 100), True),
         ((5, 5, 1000, 1), False), ((0, 0, 1000, 0), False), ((3, 5, 61, 0.5), True)]
bad = [(args, want) for args, want in cases if another_round(*args) != want]
sys.exit(f"another_round wrong for {bad}" if bad else 0)
PY

# ---- (3) no GPU here: refused in one line
if ! command -v nvidia-smi >/dev/null; then
	"$DNNTRACE_ROOT/bench/real_gpu.sh" "$DNNTRACE_BUILD" >"$TEST_TMP/refused.out" 2>"$TEST_TMP/refused.err"
	status=$?
	[ "$status" = 77 ] || fail "bench-gpu without a GPU exited $status, want 77"
	[ "$(wc -l <"$TEST_TMP/refused.err")" = 1 ] && [ ! -s "$TEST_TMP/refused.out" ] ||
		fail "bench-gpu without a GPU: want one line on stderr: $(cat "$TEST_TMP/refused.err")"
fi

# ---- (2) the measuring path on simgpu
program="$DNNTRACE_BUILD/nvcc/real_gpu_cost"
[ -x "$program" ] || skip "no $program (nvcc absent when built): the canned table passed"
out="$TEST_TMP/bench.md"
env "${asan_env[@]}" ${asan_runtime:+LD_PRELOAD="$asan_runtime"} DNNTRACE_BENCH_GPU_SIMGPU=1 DNNTRACE_BENCH_GPU_ROUNDS=1 \
	DNNTRACE_BENCH_GPU_DEADLINE=1000 DNNTRACE_BENCH_GPU_STEPS=5 DNNTRACE_BENCH_GPU_CALLS=launch:300 \
	DNNTRACE_BENCH_GPU_OUT="$out" DNNTRACE_BENCH_GPU_WORK="$TEST_TMP/work" \
	"$DNNTRACE_ROOT/bench/real_gpu.sh" "$DNNTRACE_BUILD" >"$TEST_TMP/bench.out" 2>"$TEST_TMP/bench.err" ||
	fail "bench-gpu on simgpu exited $?: $(tail -n 3 "$TEST_TMP/bench.err")"
cmp -s "$out" "$TEST_TMP/bench.out" || fail "the table printed is not the table written"
python3 - "$out.json" "$out" <<'PY' 2>"$TEST_TMP/check.err" || fail "bench-gpu on simgpu: $(tail -n 1 "$TEST_TMP/check.err")"
import json, re, sys
r = json.load(open(sys.argv[1]))
table = open(sys.argv[2]).read()
def need(ok, what):
    if not ok:
        sys.exit(what)
need(r["rounds_done"] == 1 and not r["notes"], f"rounds done {r['rounds_done']}, notes {r['notes']}: 1 asked")
for key in ["bare"] + [f"dnntrace_{m}" for m in ("off", "kernels", "work", "full")]:
    for model in ("launch_bound", "gpu_bound"):
        v = r["steps"][key][model]
        need(len(v) == 1 and isinstance(v[0], float) and v[0] > 0, f"steps {key} {model}: {v}")
    v = r["calls"][key]["launch"]
    need(len(v) == 1 and isinstance(v[0], float) and v[0] > 0, f"launch {key}: {v}")
    need("alloc" not in r["calls"][key], f"alloc measured though not asked: {key}")
need("profiler" not in r["steps"], "a profiler run without PyTorch")
for mode in ("kernels", "work", "full"):
    got = r["linked"].get(f"dnntrace_{mode}")
    need(got == f"408 of 408 ({mode})", f"{mode}: kernels linked {got!r}, want '408 of 408 ({mode})'")
rows = {line.split(" | ")[0].lstrip("| "): line for line in table.splitlines() if line.startswith("| ")}
for mode in ("off", "kernels", "work", "full"):
    row = [c.strip() for c in next(v for k, v in rows.items() if f"--gpu-records={mode}" in k).split("|")[1:-1]]
    need(re.fullmatch(r"x\d+\.\d{3} \(\d+\.\d{3}-\d+\.\d{3}\)", row[1]) and row[3].startswith(("+", "-")),
         f"{mode} row: {row}")
    need(row[4] == "n/a", f"{mode} row: alloc not asked, got {row[4]}")
need("| torch.profiler (CPU + CUDA activities) | n/a | n/a | - | - | - |" in table, "profiler row")
PY
exit 0
