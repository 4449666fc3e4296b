#!/usr/bin/env bash
# ABI compatibility of simgpu with the real CUDA runtime: a program linked
# against the REAL libcudart.so.13 runs on simgpu's via LD_LIBRARY_PATH (and
# really uses the simulated device), and a program linked against simgpu's
# loads and runs on the real library (symbol versions match).
. "$DNNTRACE_ROOT/tests/lib/common.sh"
build=$DNNTRACE_BUILD
cuda=${CUDA_HOME:-/usr/local/cuda}
real_probe=$build/simgpu/abi_probe_real
sim_probe=$build/simgpu/abi_probe_sim
for f in "$real_probe" "$sim_probe"; do
	[ -x "$f" ] || fail "missing $f (run make)"
done
[ -f "$cuda/lib64/libcudart.so.13" ] || skip "no real libcudart.so.13 in $cuda/lib64"

out=$(SIMGPU_TIME_SCALE=0 LD_LIBRARY_PATH="$build/simgpu/lib" "$real_probe" 2>&1) ||
	fail "real-linked probe failed on simgpu: $out"
for want in "runtime 13000 cudaSuccess" "cudaMalloc cudaSuccess 0x200000000000" \
	"roundtrip cudaSuccess equal" "device simgpu simulated device" "cudaFree cudaSuccess"; do
	grep -qxF "$want" <<<"$out" || fail "real-linked probe on simgpu: no line '$want' in: $out"
done
objdump -p "$real_probe" | grep -q "NEEDED *libcudart.so.13" || fail "probe does not need libcudart.so.13"

# simgpu-linked program on the real runtime: it must load (versions match)
# and get an answer from the real library (an error here: no driver).
out=$(LD_LIBRARY_PATH="$cuda/lib64" "$sim_probe" 2>&1) ||
	fail "simgpu-linked probe failed to run on the real runtime: $out"
grep -q "^runtime 13000 cudaSuccess$" <<<"$out" || fail "real runtime gave: $out"
grep -q "^cudaMalloc " <<<"$out" || fail "real runtime: no cudaMalloc answer: $out"
if grep -q "device simgpu" <<<"$out"; then fail "simgpu answered instead of the real runtime"; fi
exit 0
