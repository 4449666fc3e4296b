#!/usr/bin/env bash
# real_gpu.sh [BUILD_DIR]: the tracer's cost per call on this machine's real
# NVIDIA GPU (make bench-gpu): bench/real_gpu_cost.cu, built with nvcc for
# this GPU, run bare and under `dnntrace record`, twice each, interleaved;
# prints ns per cudaMalloc+cudaFree pair and per <<<>>> launch. Real calls
# cost microseconds and vary from run to run: read the ranges, not a ratio
# of one pair. Refuses (exit 77) without a GPU or nvcc. Never part of make test.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
build=$(cd "${1:-$top/build}" && pwd -P)
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 ||
	{ echo "real_gpu: no NVIDIA GPU here (nvidia-smi -L)" >&2; exit 77; }
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || nvcc=$(command -v nvcc) || { echo "real_gpu: nvcc not found" >&2; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-bench-gpu.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$nvcc" -O2 -arch="${DNNTRACE_BENCH_GPU_ARCH:-native}" -cudart shared \
	"$top/bench/real_gpu_cost.cu" -o "$work/real_gpu_cost"
export DNNTRACE_BUILD=$build
run() { # MODE N [traced]
	if [ "${3:-}" = traced ]; then
		rm -rf "$work/trace"
		"$top/scripts/dnntrace" record -o "$work/trace" -- "$work/real_gpu_cost" "$1" "$2" 2>"$work/record.err" ||
			{ cat "$work/record.err" >&2; exit 1; }
	else
		"$work/real_gpu_cost" "$1" "$2"
	fi
}
echo "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); ns per call, best of 5 rounds"
for mode in alloc:20000 launch:40000; do
	m=${mode%%:*} n=${mode#*:}
	b1=$(run "$m" "$n"); t1=$(run "$m" "$n" traced); b2=$(run "$m" "$n"); t2=$(run "$m" "$n" traced)
	status=$(grep -rahoE 'cupti [0-9]+[ -~]{0,60}' "$work/trace" 2>/dev/null | head -n 1)
	printf '%-7s bare %s, %s ns; traced %s, %s ns (%s)\n' "$m" "$b1" "$b2" "$t1" "$t2" "${status:-CUPTI status not found}"
done
