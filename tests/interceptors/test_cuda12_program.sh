#!/usr/bin/env bash
# A CUDA 12 program (as PyTorch/TensorFlow wheels bring): cuda_calls built
# here against build/simgpu12/lib's libcudart.so.12, found through its
# RUNPATH, while LD_LIBRARY_PATH offers simgpu's CUDA 13 libcudart.so.13 and
# libcupti.so.13 as a system install would (not its libcuda.so.1: the
# variant's runtime takes the copy beside itself, built with it). The tracer must load libcupti.so.12 from beside
# that libcudart.so.12 (seen with LD_DEBUG=libs), never libcupti.so.13, and
# the kernels scenario's GPU records must link to their calls with the
# simulator's exact durations (a wrongly chosen record layout decodes other
# times, names and ids). Last, the status event must show the CUDA 12.x
# layouts (Kernel9/Memcpy5/Memset4) chosen for a CUPTI reporting a 12.x API
# version: simgpu12's libcupti.so.12 reports CUDA 13's version and writes
# CUDA 13 records (simgpu/README.md, "CUDA 12 variant"), so until the
# simulator is fixed that last check skips (77), naming the simulator bug.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
SIMGPU12_LIB="$DNNTRACE_BUILD/simgpu12/lib"
[ -e "$SIMGPU12_LIB/libcudart.so.12" ] && [ -e "$SIMGPU12_LIB/libcupti.so.12" ] ||
	skip "simgpu's CUDA 12 variant not built ($SIMGPU12_LIB)"
[ -e "$SIMGPU_LIB/libcupti.so.13" ] || skip "simgpu not built ($SIMGPU_LIB)"
require_built "$TRACER"
CUDA_INCLUDE="${CUDA_HOME:-/usr/local/cuda}/include"
[ -e "$CUDA_INCLUDE/cuda_runtime_api.h" ] || skip "no CUDA headers in $CUDA_INCLUDE"
command -v "${CC:-cc}" >/dev/null || skip "no C compiler to build the CUDA 12 program"

# Built here: the helper build rules (interceptors/module.mk) link the CUDA 13 runtime.
# Sanitized like the simulated runtime it links (build-asan).
san_flags=()
readelf -d "$SIMGPU12_LIB/libcudart.so.12" | grep -q libasan && san_flags=(-fsanitize=address,undefined)
prog="$tmp/cuda_calls12"
"${CC:-cc}" "${san_flags[@]}" -std=c11 -O1 -D_GNU_SOURCE -I"$DNNTRACE_ROOT" -I"$CUDA_INCLUDE" \
	-o "$prog" "$DNNTRACE_ROOT/tests/interceptors/cuda_calls.c" \
	-L"$SIMGPU12_LIB" -l:libcudart.so.12 -Wl,--enable-new-dtags,-rpath,"$SIMGPU12_LIB" \
	-ldl -lpthread 2>"$tmp/cc.err" || fail "cannot build the CUDA 12 program: $(head -n 3 "$tmp/cc.err")"
readelf -V "$prog" | grep -q 'Name: libcudart.so.12' || fail "the program does not need libcudart.so.12's version"

system13="$tmp/system13"
mkdir -p "$system13"
ln -s "$SIMGPU_LIB/libcudart.so.13" "$SIMGPU_LIB/libcupti.so.13" "$system13/"

LD_LIBRARY_PATH="$system13" "$prog" kernels return >"$tmp/plain" || fail "untraced run failed"
record_raw "$tmp/trace" "$tmp/out" "$tmp/err" "$system13" \
	LD_DEBUG=libs LD_DEBUG_OUTPUT="$tmp/ld" "$prog" kernels return || fail "traced run failed (status $?)"
same_results "$tmp/plain" "$tmp/out" || fail "results differ when traced"

ld_log=$(cat "$tmp"/ld.* 2>/dev/null)
grep -q "calling init: $SIMGPU12_LIB/libcudart.so.12" <<<"$ld_log" || fail "libcudart.so.12 not loaded from $SIMGPU12_LIB"
grep -q "calling init: $SIMGPU12_LIB/libcupti.so.12" <<<"$ld_log" ||
	fail "the tracer did not load $SIMGPU12_LIB/libcupti.so.12: $(grep -o 'calling init: .*libcupti[^ ]*' <<<"$ld_log")"
grep -q 'calling init: .*libcupti.so.13' <<<"$ld_log" && fail "libcupti.so.13 loaded into a CUDA 12 program"

events "$tmp/trace" >"$tmp/txt"
babeltrace2 --clock-cycles "$tmp/trace" | python3 "$CHECK_EVENTS" kernels "$tmp/out" >"$tmp/check" ||
	fail "GPU records wrong: $(grep FAIL "$tmp/check" | head -n 5)"
babeltrace2 --clock-cycles "$tmp/trace" | python3 "$CHECK_EVENTS" layers "$tmp/out" >"$tmp/check" ||
	fail "GPU record times wrong: $(grep FAIL "$tmp/check" | head -n 5)"
[ "$(grep -c 'dnntrace_gpu:kernel:' "$tmp/txt")" = 1 ] || fail "want 1 GPU kernel record"

status=$(sed -nE 's/.*dnntrace_api:status: .*message = "(.*)", format = 8(, version = "[^"]*")?(, rank = -?[0-9]+)? \}$/\1/p' "$tmp/txt")
version=$(sed -nE 's/^cupti ([0-9]+).*/\1/p' <<<"$status")
grep -q '(libcupti.so.12: ' <<<"$status" || fail "status [$status] does not name libcupti.so.12"
# CUDA 13's CUPTI numbers its API version 130001; CUDA 12.x's are below 130000.
if [ -n "$version" ] && [ "$version" -ge 130000 ]; then
	skip "simgpu bug: $SIMGPU12_LIB/libcupti.so.12 reports CUPTI API version $version (CUDA 13's) and writes CUDA 13 records, so the CUDA 12.x record layouts are untested (all else passed: [$status])"
fi
grep -q '(libcupti.so.12: Kernel9/Memcpy5/Memset4)' <<<"$status" ||
	fail "status [$status]: a CUDA 12.x CUPTI's records must be read as Kernel9/Memcpy5/Memset4"
exit 0
