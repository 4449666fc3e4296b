#!/usr/bin/env bash
# ABI compatibility of simgpu with the real CUDA runtime: a program linked
# against the REAL libcudart.so.13 runs on simgpu's via LD_LIBRARY_PATH (and
# really uses the simulated device), and a program linked against simgpu's
# loads and runs on the real library (symbol versions match).
set -u
build=${DNNTRACE_BUILD:?DNNTRACE_BUILD must name the build directory}
cuda=${CUDA_HOME:-/usr/local/cuda}
real_probe=$build/simgpu/abi_probe_real
sim_probe=$build/simgpu/abi_probe_sim
for f in "$real_probe" "$sim_probe"; do
	[ -x "$f" ] || { echo "missing $f (run make)"; exit 1; }
done
[ -f "$cuda/lib64/libcudart.so.13" ] || { echo "no real libcudart.so.13 in $cuda/lib64"; exit 77; }

out=$(SIMGPU_TIME_SCALE=0 LD_LIBRARY_PATH="$build/simgpu/lib" "$real_probe" 2>&1) || {
	echo "real-linked probe failed on simgpu: $out"; exit 1; }
for want in "runtime 13000 cudaSuccess" "cudaMalloc cudaSuccess 0x200000000000" \
	"roundtrip cudaSuccess equal" "device simgpu simulated device" "cudaFree cudaSuccess"; do
	grep -qxF "$want" <<<"$out" || { echo "real-linked probe on simgpu: no line '$want' in: $out"; exit 1; }
done
objdump -p "$real_probe" | grep -q "NEEDED *libcudart.so.13" || { echo "probe does not need libcudart.so.13"; exit 1; }

# simgpu-linked program on the real runtime: it must load (versions match)
# and get an answer from the real library (an error here: no driver).
out=$(LD_LIBRARY_PATH="$cuda/lib64" "$sim_probe" 2>&1) || {
	echo "simgpu-linked probe failed to run on the real runtime: $out"; exit 1; }
grep -q "^runtime 13000 cudaSuccess$" <<<"$out" || { echo "real runtime gave: $out"; exit 1; }
grep -q "^cudaMalloc " <<<"$out" || { echo "real runtime: no cudaMalloc answer: $out"; exit 1; }
if grep -q "device simgpu" <<<"$out"; then echo "simgpu answered instead of the real runtime"; exit 1; fi
exit 0
