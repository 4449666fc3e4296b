#!/usr/bin/env bash
# `dnntrace env`, `set_env.sh` (run and sourced) give the same environment:
# the build's tracer preloaded (after a sanitizer runtime, never before),
# the simulated GPU with --simgpu, blocking unless --lossy, one allocation per
# tensor unless --keep-allocator, the tracer as NVTX injection library, the
# PyTorch naming shim on PYTHONPATH with --torch-names (only then).
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
lib="$DNNTRACE_BUILD/lib/libdnntrace.so"
[ -f "$lib" ] || fail "missing $lib (build with make all)"

exports=$(env -u LD_PRELOAD -u LD_LIBRARY_PATH "$DNNTRACE" env --simgpu) || fail "dnntrace env failed"
check() { echo "$exports" | grep -qxF -- "$1" || fail "dnntrace env --simgpu lacks: $1 (got: $exports)"; }
check "export LD_PRELOAD=$(printf %q "$lib")"
check "export LD_LIBRARY_PATH=$(printf %q "$DNNTRACE_BUILD/simgpu/lib")"
check "export LTTNG_UST_ALLOW_BLOCKING=1"
check "export PYTORCH_NO_CUDA_MEMORY_CACHING=1"
check "export MXNET_GPU_MEM_POOL_TYPE=Naive"
check "export MXNET_ENGINE_TYPE=NaiveEngine"
check "export TF_GPU_ALLOCATOR=cuda_malloc_async"
check "export NVTX_INJECTION64_PATH=$(printf %q "$lib")"
echo "$exports" | grep -q PYTHONPATH && fail "PYTHONPATH set without --torch-names: $exports"

python_dir="$DNNTRACE_ROOT/python"
torch_names=$(env -u PYTHONPATH "$DNNTRACE" env --torch-names) || fail "dnntrace env --torch-names failed"
echo "$torch_names" | grep -qxF "export PYTHONPATH=$(printf %q "$python_dir:$python_dir/dnntrace_torch/shim")" ||
	fail "dnntrace env --torch-names: wrong PYTHONPATH: $torch_names"
[ -f "$python_dir/dnntrace_torch/shim/sitecustomize.py" ] || fail "no shim at $python_dir/dnntrace_torch/shim"
kept=$(PYTHONPATH=/user/path "$DNNTRACE" env --torch-names | sed -n 's/^export PYTHONPATH=//p')
[ "$kept" = "$(printf %q "$python_dir:$python_dir/dnntrace_torch/shim:/user/path")" ] ||
	fail "the user's PYTHONPATH is not kept after the shim: $kept"
sourced_names=$(env -u PYTHONPATH bash -c '. "$1" --torch-names && echo "$PYTHONPATH|$NVTX_INJECTION64_PATH"' _ "$SCRIPTS/set_env.sh") ||
	fail "sourcing set_env.sh --torch-names failed"
[ "$sourced_names" = "$python_dir:$python_dir/dnntrace_torch/shim|$lib" ] ||
	fail "sourced set_env.sh --torch-names set: $sourced_names"

lossy=$(env -u LD_PRELOAD "$DNNTRACE" env --lossy --keep-allocator) || fail "dnntrace env --lossy failed"
echo "$lossy" | grep -q 'LTTNG_UST_ALLOW_BLOCKING\|PYTORCH_NO_CUDA\|LD_LIBRARY_PATH' &&
	fail "--lossy --keep-allocator still sets: $lossy"

asan=/usr/lib/libasan.so.8
first=$(LD_PRELOAD="$asan /other.so" "$DNNTRACE" env | sed -n 's/^export LD_PRELOAD=//p')
[ "$first" = "$(printf %q "$asan $lib /other.so")" ] || fail "sanitizer runtime not kept first: $first"
other=$(LD_PRELOAD="/other.so" "$DNNTRACE" env | sed -n 's/^export LD_PRELOAD=//p')
[ "$other" = "$(printf %q "$lib /other.so")" ] || fail "tracer not prepended: $other"

ran=$(env -u LD_PRELOAD -u LD_LIBRARY_PATH "$SCRIPTS/set_env.sh" --simgpu) || fail "set_env.sh (run) failed"
[ "$ran" = "$exports" ] || fail "set_env.sh prints something else than dnntrace env"
sourced=$(env -u LD_PRELOAD -u LD_LIBRARY_PATH bash -c '. "$1" --simgpu && echo "$LD_PRELOAD|$LD_LIBRARY_PATH|$PYTORCH_NO_CUDA_MEMORY_CACHING"' _ "$SCRIPTS/set_env.sh") ||
	fail "sourcing set_env.sh failed"
[ "$sourced" = "$lib|$DNNTRACE_BUILD/simgpu/lib|1" ] || fail "sourced set_env.sh set: $sourced"
survived=$(bash -c '. "$1" --bogus 2>/dev/null; echo "still here $?"' _ "$SCRIPTS/set_env.sh")
[ "$survived" = "still here 1" ] || fail "a bad option to sourced set_env.sh must not exit the shell: $survived"

"$DNNTRACE" --help | grep -q '^usage: dnntrace record' || fail "dnntrace --help shows no usage"
exit 0
