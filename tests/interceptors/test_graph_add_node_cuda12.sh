#!/usr/bin/env bash
# cudaGraphAddNode on a CUDA 12 runtime (tests/interceptors/graph_add_node12.c,
# built here against simgpu's libcudart.so.12, which says 12080): the real
# libcudart.so.12's cudaGraphAddNode is CUDA 12.2's five-argument form, so
# the tracer forwards a CUDA 12 runtime's call untouched and untraced, and
# the driver call it makes, cuGraphAddNode_v2, is the call's one
# graph_node event, with the node's tensor (x). Same output traced and
# untraced. (simgpu's libcudart.so.12 takes CUDA 13's six arguments: the
# program calls it so; what this checks is that the tracer leaves a
# CUDA 12 runtime's cudaGraphAddNode alone.) Before the version check, the
# tracer read a CUDA 12 program's sixth register as nodeParams.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
SIMGPU12_LIB="$DNNTRACE_BUILD/simgpu12/lib"
[ -e "$SIMGPU12_LIB/libcudart.so.12" ] || skip "simgpu's CUDA 12 variant not built ($SIMGPU12_LIB)"
require_built "$TRACER"
CUDA_INCLUDE="${CUDA_HOME:-/usr/local/cuda}/include"
[ -e "$CUDA_INCLUDE/cuda_runtime_api.h" ] || skip "no CUDA headers in $CUDA_INCLUDE"
command -v "${CC:-cc}" >/dev/null || skip "no C compiler to build the CUDA 12 program"

san_flags=()
readelf -d "$SIMGPU12_LIB/libcudart.so.12" | grep -q libasan && san_flags=(-fsanitize=address,undefined)
prog="$tmp/graph_add_node12"
"${CC:-cc}" "${san_flags[@]}" -std=c11 -O1 -D_GNU_SOURCE -I"$CUDA_INCLUDE" \
	-o "$prog" "$DNNTRACE_ROOT/tests/interceptors/graph_add_node12.c" \
	-L"$SIMGPU12_LIB" -l:libcudart.so.12 -Wl,--enable-new-dtags,-rpath,"$SIMGPU12_LIB" \
	-ldl 2>"$tmp/cc.err" || fail "cannot build the CUDA 12 program: $(head -n 3 "$tmp/cc.err")"

"$prog" >"$tmp/plain" 2>"$tmp/plain.err" || fail "untraced run failed: $(tail -n 2 "$tmp/plain.err")"
grep -q '^cudaGraphLaunch 0$' "$tmp/plain" || fail "untraced: $(tr '\n' ' ' <"$tmp/plain")"
record_raw "$tmp/trace" "$tmp/out" "$tmp/err" "$SIMGPU12_LIB" "$prog" ||
	fail "traced run failed (status $?): $(tail -n 2 "$tmp/err")"
cmp -s "$tmp/plain" "$tmp/out" || fail "output differs when traced"
events "$tmp/trace" >"$tmp/txt"
nodes=$(grep 'dnntrace_api:graph_node:' "$tmp/txt")
[ "$(grep -c . <<<"$nodes")" = 1 ] || fail "want one graph_node event, got: $nodes"
grep -q 'api = ( "cuGraphAddNode_v2"' <<<"$nodes" || fail "not the driver call's: $nodes"
x=$(sed -nE 's/.*dnntrace_api:alloc: .*tensor_id = ([0-9]+).*/\1/p' "$tmp/txt" | head -n 1)
[ -n "$x" ] || fail "no alloc event for x"
grep -qE "tensors = \[ \[0\] = $x \]" <<<"$nodes" || fail "the node's tensors are not [x = $x]: $nodes"
exit 0
