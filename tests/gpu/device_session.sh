#!/usr/bin/env bash
# device_session.sh OUT_DIR [SECONDS]: everything a lent GPU machine is for,
# in one call that ends within SECONDS (default 500): LTTng from the carried
# Debian packages in .gpu-debs/ where the machine has none
# (lttng_from_debs.sh), `make gpu-check` without its PyTorch part when time
# is short, then `make bench-gpu` with what is left. Writes into OUT_DIR
# the logs, the table (bench-gpu.md and .json) and the check's reports and
# traces (gpu-check.tgz). Run from the repository root with build/lib and
# build/bin carried (tests/gpu/README.md, "On a machine without LTTng"):
#
#   bash tests/gpu/device_session.sh "$OUT" 500
#
# Must never install anything but what lttng_from_debs.sh adds, nor leave
# a process running.
set -uo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: device_session.sh OUT_DIR [SECONDS]" >&2; exit 2; }
out=$1 budget=${2:-500}
root=$(cd "$(dirname "$0")/../.." && pwd -P)
cd "$root" || exit 2
mkdir -p "$out" || exit 2
export DNNTRACE_BENCH_GPU_T0=$(date +%s)
elapsed() { echo $(($(date +%s) - DNNTRACE_BENCH_GPU_T0)); }

if [ -d .gpu-debs ]; then
	bash tests/gpu/lttng_from_debs.sh .gpu-debs >"$out/prep.log" 2>&1 ||
		{ cat "$out/prep.log"; exit 3; }
fi
nvidia-smi -L | tee "$out/machine.txt"
python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.is_available())' 2>&1 |
	tee -a "$out/machine.txt"

# The graph-callback probe (tests/gpu/probe_graph_callbacks.cu, about 20 s):
# which CUPTI callbacks come around a graph's instantiation, on which thread,
# naming which exec. Untraced: a process has one CUPTI subscriber.
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuda_home=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
cupti_dirs=("$cuda_home/lib64" "$cuda_home/extras/CUPTI/lib64")
if timeout 90 "$nvcc" -arch=native -cudart shared -I"$cuda_home/extras/CUPTI/include" \
	tests/gpu/probe_graph_callbacks.cu -o /tmp/probe_graph_callbacks \
	"${cupti_dirs[@]/#/-L}" -lcupti -lcuda >"$out/probe.log" 2>&1; then
	LD_LIBRARY_PATH="$cuda_home/lib64:$cuda_home/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		timeout 30 /tmp/probe_graph_callbacks >>"$out/probe.log" 2>&1
fi
echo "probe exited $? after $(elapsed) s"

# The check: about 30 s for the programs and 45 s for PyTorch on an H200.
check_deadline=$((budget / 5))
torch_python=python3
[ "$budget" -lt 300 ] && torch_python=/nonexistent # PyTorch's part skipped
DNNTRACE_GPU_CHECK_PYTHON=$torch_python DNNTRACE_GPU_CHECK_WORK=/tmp/device-session-check \
	DNNTRACE_GPU_CHECK_DEADLINE=$check_deadline bash tests/gpu/run_gpu_check.sh build \
	>"$out/gpu-check.log" 2>&1
echo "gpu-check exited $? after $(elapsed) s"
sed -n '/^dnntrace real-GPU check/,$p' "$out/gpu-check.log"
tar czf "$out/gpu-check.tgz" -C /tmp/device-session-check reports runs truth traces 2>/dev/null

# The benchmark with the rest, 20 s kept for the copy back.
DNNTRACE_BENCH_GPU_DEADLINE=$((budget - 20)) DNNTRACE_BENCH_GPU_OUT="$out/bench-gpu.md" \
	bash bench/real_gpu.sh build >"$out/bench-gpu.log" 2>&1
echo "bench-gpu exited $? after $(elapsed) s"
tail -n 20 "$out/bench-gpu.log"
