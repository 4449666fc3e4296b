#!/usr/bin/env bash
# real_gpu.sh [BUILD_DIR]: what tracing costs on this machine's real NVIDIA
# GPU (make bench-gpu): a training step of a launch-bound and a GPU-bound
# PyTorch model (bench/train_step.py) and one call (bench/real_gpu_cost.cu,
# built here with nvcc for this GPU), bare, under `dnntrace record` with
# each --gpu-records mode, and (the steps) under torch.profiler, in
# interleaved rounds; prints one markdown table and writes it to
# DNNTRACE_BENCH_GPU_OUT (default BUILD_DIR/bench-gpu.md, the raw figures
# beside it as .json). bench/gpu_cost.py does the measuring and says what
# each figure is; bench/README.md shows the table. Refuses in one line
# (exit 77) without a GPU, nvcc, LTTng or PyTorch with CUDA. Ends its
# measuring and analysing within DNNTRACE_BENCH_GPU_DEADLINE seconds (default 480) of its
# start, so a 10-minute device call has room. Never part of make test;
# DNNTRACE_BENCH_GPU_SIMGPU=1 runs it on simgpu to test it.
set -euo pipefail
export DNNTRACE_BENCH_GPU_T0=${DNNTRACE_BENCH_GPU_T0:-$(date +%s)}
top=$(cd "$(dirname "$0")/.." && pwd -P)
build=$(cd "${1:-$top/build}" && pwd -P)
refuse() { echo "bench-gpu: $*" >&2; exit 77; }
py=${DNNTRACE_BENCH_GPU_PYTHON:-python3}
command -v python3 >/dev/null || refuse "python3 not found"
command -v lttng-sessiond >/dev/null || refuse "LTTng not found (lttng-sessiond)"
[ -f "$build/lib/libdnntrace.so" ] && [ -x "$build/bin/dnntrace-analyze" ] ||
	{ echo "bench-gpu: $build has no dnntrace build (make)" >&2; exit 2; }
if [ "${DNNTRACE_BENCH_GPU_SIMGPU:-0}" = 1 ]; then
	program=${DNNTRACE_BENCH_GPU_PROGRAM:-$build/nvcc/real_gpu_cost}
	[ -x "$program" ] || refuse "no $program (built by make where nvcc is)"
	export SIMGPU_TIME_SCALE=${SIMGPU_TIME_SCALE:-1}
else
	command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 ||
		refuse "no NVIDIA GPU here (nvidia-smi -L)"
	nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
	[ -x "$nvcc" ] || nvcc=$(command -v nvcc) || refuse "nvcc not found"
	"$py" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null ||
		refuse "$py has no PyTorch with CUDA (DNNTRACE_BENCH_GPU_PYTHON)"
	mkdir -p "$build/bench"
	program=$build/bench/real_gpu_cost
	"$nvcc" -O2 -arch="${DNNTRACE_BENCH_GPU_ARCH:-native}" -cudart shared \
		"$top/bench/real_gpu_cost.cu" -o "$program"
fi
out=${DNNTRACE_BENCH_GPU_OUT:-$build/bench-gpu.md}
# One session daemon for every run (dnntrace record uses the one running):
# no daemon start and stop inside the figures' runs. On simgpu (a test on a
# shared machine) a private one; on a GPU machine the user's, as `dnntrace
# record` does: the one running, else one started here and stopped at the
# end (private_lttng.sh needs unshare as root, which a container may lack).
if [ "${DNNTRACE_BENCH_GPU_SIMGPU:-0}" = 1 ]; then
	exec "$top/tests/lib/private_lttng.sh" python3 "$top/bench/gpu_cost.py" run "$build" "$program" "$out"
fi
DNNTRACE_BUILD=$build
# shellcheck source=../scripts/lib/dnntrace-session.sh
. "$top/scripts/lib/dnntrace-session.sh"
dnntrace_locate
started_daemon=
dnntrace_sessiond_running || started_daemon=$(dnntrace_start_sessiond)
trap 'dnntrace_stop_sessiond "$started_daemon"' EXIT
python3 "$top/bench/gpu_cost.py" run "$build" "$program" "$out"
