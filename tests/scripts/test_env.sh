#!/usr/bin/env bash
# `dnntrace env`, `set_env.sh` (run and sourced) give the same environment:
# the build's tracer preloaded (after a sanitizer runtime, never before),
# the simulated GPU with --simgpu, blocking unless --lossy, one allocation per
# tensor unless --allocator=keep (--keep-allocator): PyTorch's cudaMallocAsync
# backend appended to the user's PYTORCH_CUDA_ALLOC_CONF by default (a backend
# the user chose is kept, with one warning), PYTORCH_NO_CUDA_MEMORY_CACHING
# with --allocator=no-caching; the tracer as NVTX injection library, the
# PyTorch naming shim on PYTHONPATH with --torch-names (only then). LTTng-UST's
# fork wrapper is taken beside the liblttng-ust the tracer loads (an LTTng
# outside the system's directories), and its absence is said.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
lib="$DNNTRACE_BUILD/lib/libdnntrace.so"
[ -f "$lib" ] || fail "missing $lib (build with make all)"
# LTTng-UST's fork wrapper comes after the tracer wherever the system has it
ust_fork=$(find /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 \
	/usr/lib /usr/local/lib -maxdepth 1 -name liblttng-ust-fork.so.1 2>/dev/null | head -n 1)
preload="$lib${ust_fork:+ $ust_fork}"

exports=$(env -u LD_PRELOAD -u LD_LIBRARY_PATH -u PYTORCH_CUDA_ALLOC_CONF -u PYTORCH_ALLOC_CONF \
	"$DNNTRACE" env --simgpu) || fail "dnntrace env failed"
check() { echo "$exports" | grep -qxF -- "$1" || fail "dnntrace env --simgpu lacks: $1 (got: $exports)"; }
check "export LD_PRELOAD=$(printf %q "$preload")"
check "export LD_LIBRARY_PATH=$(printf %q "$DNNTRACE_BUILD/simgpu/lib")"
check "export LTTNG_UST_ALLOW_BLOCKING=1"
check "export PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync"
echo "$exports" | grep -q 'PYTORCH_NO_CUDA_MEMORY_CACHING\|PYTORCH_ALLOC_CONF=' &&
	fail "the default allocator mode sets more than the cudaMallocAsync backend: $exports"
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
echo "$lossy" | grep -q 'LTTNG_UST_ALLOW_BLOCKING\|PYTORCH\|MXNET\|TF_GPU\|LD_LIBRARY_PATH' &&
	fail "--lossy --keep-allocator still sets: $lossy"
[ "$("$DNNTRACE" env --allocator=keep)" = "$("$DNNTRACE" env --keep-allocator)" ] ||
	fail "--allocator=keep differs from --keep-allocator"

# The allocator modes and the user's PyTorch settings.
nocache=$(env -u PYTORCH_CUDA_ALLOC_CONF "$DNNTRACE" env --allocator no-caching) || fail "--allocator no-caching failed"
echo "$nocache" | grep -qxF "export PYTORCH_NO_CUDA_MEMORY_CACHING=1" || fail "no-caching lacks PYTORCH_NO_CUDA_MEMORY_CACHING: $nocache"
echo "$nocache" | grep -q PYTORCH_CUDA_ALLOC_CONF && fail "no-caching sets PYTORCH_CUDA_ALLOC_CONF: $nocache"
appended=$(PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True,max_split_size_mb:128, ' "$DNNTRACE" env 2>"$scratch/env.err")
echo "$appended" | grep -qxF "export PYTORCH_CUDA_ALLOC_CONF=$(printf %q 'expandable_segments:True,max_split_size_mb:128,backend:cudaMallocAsync')" ||
	fail "the user's PYTORCH_CUDA_ALLOC_CONF is not kept before the backend: $appended"
[ -s "$scratch/env.err" ] && fail "appending warned: $(cat "$scratch/env.err")"
both=$(PYTORCH_ALLOC_CONF='garbage_collection_threshold:0.5' PYTORCH_CUDA_ALLOC_CONF= "$DNNTRACE" env)
echo "$both" | grep -qxF "export PYTORCH_ALLOC_CONF=$(printf %q 'garbage_collection_threshold:0.5,backend:cudaMallocAsync')" ||
	fail "PYTORCH_ALLOC_CONF, set by the user, did not get the backend: $both"
echo "$both" | grep -qxF "export PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync" || fail "empty PYTORCH_CUDA_ALLOC_CONF: $both"
user=$(PYTORCH_CUDA_ALLOC_CONF='max_split_size_mb:64, backend : native' "$DNNTRACE" env 2>"$scratch/env.err") || fail "dnntrace env with a user backend failed"
echo "$user" | grep -q PYTORCH_CUDA_ALLOC_CONF && fail "the user's backend was overridden: $user"
[ "$(grep -c 'already chooses a backend' "$scratch/env.err")" = 1 ] || fail "no single warning for the user's backend: $(cat "$scratch/env.err")"
bad=$("$DNNTRACE" env --allocator=fast 2>&1 >/dev/null)
status=$?
[ "$status" = 1 ] && [ "$(echo "$bad" | wc -l)" = 1 ] && echo "$bad" | grep -q 'async, no-caching or keep' ||
	fail "--allocator=fast: status $status, said: $bad"

asan=/usr/lib/libasan.so.8
first=$(LD_PRELOAD="$asan /other.so" "$DNNTRACE" env | sed -n 's/^export LD_PRELOAD=//p')
[ "$first" = "$(printf %q "$asan $preload /other.so")" ] || fail "sanitizer runtime not kept first: $first"
other=$(LD_PRELOAD="/other.so" "$DNNTRACE" env | sed -n 's/^export LD_PRELOAD=//p')
[ "$other" = "$(printf %q "$preload /other.so")" ] || fail "tracer not prepended: $other"

ran=$(env -u LD_PRELOAD -u LD_LIBRARY_PATH "$SCRIPTS/set_env.sh" --simgpu) || fail "set_env.sh (run) failed"
[ "$ran" = "$exports" ] || fail "set_env.sh prints something else than dnntrace env"
sourced=$(env -u LD_PRELOAD -u LD_LIBRARY_PATH -u PYTORCH_CUDA_ALLOC_CONF bash -c '. "$1" --simgpu && echo "$LD_PRELOAD|$LD_LIBRARY_PATH|$PYTORCH_CUDA_ALLOC_CONF"' _ "$SCRIPTS/set_env.sh") ||
	fail "sourcing set_env.sh failed"
[ "$sourced" = "$preload|$DNNTRACE_BUILD/simgpu/lib|backend:cudaMallocAsync" ] || fail "sourced set_env.sh set: $sourced"
sourced=$(bash -c '. "$1" --allocator=no-caching && echo "$PYTORCH_NO_CUDA_MEMORY_CACHING"' _ "$SCRIPTS/set_env.sh")
[ "$sourced" = 1 ] || fail "sourced set_env.sh --allocator=no-caching set: $sourced"
survived=$(bash -c '. "$1" --bogus 2>/dev/null; echo "still here $?"' _ "$SCRIPTS/set_env.sh")
[ "$survived" = "still here 1" ] || fail "a bad option to sourced set_env.sh must not exit the shell: $survived"

# An LTTng in a prefix of its own: the fork wrapper beside its liblttng-ust.
if [ -n "$ust_fork" ]; then
	prefix="$TEST_TMP/lttng-prefix"
	mkdir -p "$prefix"
	ust=$(ldd "$lib" | awk '$1 == "liblttng-ust.so.1" && !found {found = $3} END {print found}')
	cp -L "$ust" "$ust_fork" "$prefix/" || fail "cannot copy liblttng-ust to $prefix"
	found=$(LD_LIBRARY_PATH="$prefix" bash -c '. "$1"; dnntrace_locate; dnntrace_find_ust_fork' _ \
		"$SCRIPTS/lib/dnntrace-session.sh")
	[ "$found" = "$(cd "$prefix" && pwd -P)/liblttng-ust-fork.so.1" ] ||
		fail "fork wrapper not taken beside the tracer's liblttng-ust ($prefix): $found"
fi
# None anywhere: said once, and the tracer is still preloaded.
warned=$(bash -c '. "$1"; dnntrace_locate; dnntrace_find_ust_fork() { return 1; }
	dnntrace_env_exports 0 0 async 2>&1 >/dev/null' _ "$SCRIPTS/lib/dnntrace-session.sh")
echo "$warned" | grep -q 'liblttng-ust-fork.so.1 not found' || fail "no warning without a fork wrapper: $warned"

"$DNNTRACE" --help | grep -q '^usage: dnntrace record' || fail "dnntrace --help shows no usage"

# --gpu-records: exported as given, absent when not given (the tracer's
# default then holds), a bad mode one line and a failure.
for mode in off kernels work full; do
	"$DNNTRACE" env --gpu-records="$mode" | grep -qx "export DNNTRACE_GPU_RECORDS=$mode" ||
		fail "env --gpu-records=$mode does not export it"
done
"$DNNTRACE" env --gpu-records full | grep -qx "export DNNTRACE_GPU_RECORDS=full" ||
	fail "env --gpu-records full (two words) does not export it"
"$DNNTRACE" env | grep -q DNNTRACE_GPU_RECORDS && fail "env exports DNNTRACE_GPU_RECORDS unasked"
sourced=$(bash -c '. "$1" --gpu-records=kernels && echo "$DNNTRACE_GPU_RECORDS"' _ "$SCRIPTS/set_env.sh")
[ "$sourced" = kernels ] || fail "sourced set_env.sh --gpu-records=kernels set: $sourced"
for bad in --gpu-records=bogus --gpu-records=; do
	if "$DNNTRACE" env "$bad" >"$TEST_TMP/bad.out" 2>"$TEST_TMP/bad.err"; then
		fail "env $bad succeeded"
	fi
	[ "$(wc -l <"$TEST_TMP/bad.err")" = 1 ] && grep -q 'gpu-records must be' "$TEST_TMP/bad.err" ||
		fail "env $bad: want one line saying the modes: $(cat "$TEST_TMP/bad.err")"
done
exit 0
