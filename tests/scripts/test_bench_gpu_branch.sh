#!/usr/bin/env bash
# make bench-gpu's real-GPU path, run here with stand-ins so that the first
# session with a GPU does not find its bugs: a fake nvidia-smi, nvcc
# building real_gpu_cost for sm_90 (run on simgpu through LD_LIBRARY_PATH),
# and a fake "python with torch" that logs its arguments and environment
# and prints real_gpu_cost's stand-in figures for bench/train_step.py. One
# round: train_step.py is asked for each of the 7 configurations with the
# default --steps, --profiler exactly once, the cudaMallocAsync allocator
# for bare_async and the 4 dnntrace runs only (record's default); every
# kernel of the traced stand-in linked in kernels, work and full; the
# device named in the table. Inside a private session daemon, which the
# script then uses instead of starting one.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
command -v nvcc >/dev/null || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ] || skip "no nvcc"
command -v nvidia-smi >/dev/null && skip "a real nvidia-smi here: make bench-gpu itself applies"
fake="$TEST_TMP/fake"
mkdir -p "$fake"
cat >"$fake/nvidia-smi" <<'SH'
#!/bin/sh
case "$1" in -L) echo "GPU 0: Stand-in GPU (UUID: none)" ;; *) echo "Stand-in GPU, 0.0" ;; esac
SH
cat >"$fake/python-torch" <<SH
#!/bin/bash
[ "\$1" = -c ] && exit 0   # the torch-with-CUDA check
echo "args \$* conf=\${PYTORCH_CUDA_ALLOC_CONF:-}" >>"$fake/torch.log"
exec "$DNNTRACE_BUILD/bench/real_gpu_cost" steps 5
SH
chmod +x "$fake/nvidia-smi" "$fake/python-torch"
out="$TEST_TMP/bench.md"
"$PRIVATE_LTTNG" env PATH="$fake:$PATH" LD_LIBRARY_PATH="$DNNTRACE_BUILD/simgpu/lib" SIMGPU_TIME_SCALE=1 \
	"${asan_env[@]}" DNNTRACE_BENCH_GPU_ARCH=sm_90 DNNTRACE_BENCH_GPU_PYTHON="$fake/python-torch" \
	DNNTRACE_BENCH_GPU_ROUNDS=1 DNNTRACE_BENCH_GPU_CALLS=launch:300 DNNTRACE_BENCH_GPU_OUT="$out" \
	"$DNNTRACE_ROOT/bench/real_gpu.sh" "$DNNTRACE_BUILD" >"$TEST_TMP/bench.out" 2>"$TEST_TMP/bench.err" ||
	fail "bench-gpu with stand-ins exited $?: $(tail -n 3 "$TEST_TMP/bench.err")"
[ "$(grep -c '^args ' "$fake/torch.log")" = 8 ] || fail "train_step.py runs: $(cat "$fake/torch.log")"
[ "$(grep -c -- '--steps 50:400,10:40' "$fake/torch.log")" = 8 ] || fail "not the default --steps: $(cat "$fake/torch.log")"
[ "$(grep -c -- '--profiler' "$fake/torch.log")" = 1 ] || fail "--profiler runs: $(cat "$fake/torch.log")"
[ "$(grep -c 'conf=backend:cudaMallocAsync$' "$fake/torch.log")" = 5 ] ||
	fail "the cudaMallocAsync allocator in other than 5 runs: $(cat "$fake/torch.log")"
head -n 1 "$out" | grep -q '^dnntrace on Stand-in GPU, driver 0.0: 1 rounds' || fail "device line: $(head -n 1 "$out")"
for mode in kernels work full; do
	grep -q "^| dnntrace record --gpu-records=$mode.* | 408 of 408 ($mode) |\$" "$out" ||
		fail "$mode: not every kernel linked: $(grep -- "--gpu-records=$mode" "$out")"
done
grep -q '^| bare | [0-9.]* ms (.*) | [0-9.]* ms (.*) | [0-9.]* ns (.*) | n/a | - |$' "$out" ||
	fail "bare row: $(grep '^| bare |' "$out")"
exit 0
