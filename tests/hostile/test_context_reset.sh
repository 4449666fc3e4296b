#!/usr/bin/env bash
# Semantics: the driver's context calls end every tensor of their context.
# context_reset (tests/workloads/context_reset.c) knows its 1 MiB tensors:
# cuCtxDestroy ends the two its created context allocated (not its
# stream-ordered one, which belongs to no context), cuDevicePrimaryCtxReset
# the primary context's two and the device's stream-ordered one, the
# release of the primary context's last reference its two new ones, and a
# release that leaves a reference nothing (that tensor's own cuMemFree
# ends it). Live memory per kernel is then 3, 3, 2, 1 MiB; a trace that let
# a context's tensors outlive it would show 5 MiB at the second kernel.
. "$DNNTRACE_ROOT/tests/hostile/lib.sh"
require_built "$WORKLOADS/context_reset"
hostile_record "$TEST_TMP/trace" "$WORKLOADS/context_reset" >"$TEST_TMP/out" 2>"$TEST_TMP/err" ||
	fail "record failed: $(cat "$TEST_TMP/err")"
grep -qx 'context_reset: done' "$TEST_TMP/out" || fail "the workload did not finish: $(cat "$TEST_TMP/out")"
babeltrace2 "$TEST_TMP/trace" 2>/dev/null | grep 'dnntrace_api:free' >"$TEST_TMP/frees"
# frees_of API: the tensor ids the free events of API end, in order.
frees_of() {
	grep "\"$1\"" "$TEST_TMP/frees" | grep -o 'tensor_id = [-0-9]*' | awk '{print $3}' | paste -sd, -
}
[ "$(frees_of cuCtxDestroy_v2)" = 0,1 ] ||
	fail "cuCtxDestroy_v2 ended tensors '$(frees_of cuCtxDestroy_v2)', want 0,1"
[ "$(frees_of cuDevicePrimaryCtxReset_v2)" = 3,4,2 ] ||
	fail "cuDevicePrimaryCtxReset_v2 ended '$(frees_of cuDevicePrimaryCtxReset_v2)', want 3,4,2"
[ "$(frees_of cuDevicePrimaryCtxRelease_v2)" = 5,6 ] ||
	fail "cuDevicePrimaryCtxRelease_v2 ended '$(frees_of cuDevicePrimaryCtxRelease_v2)', want 5,6"
[ "$(frees_of cuMemFree_v2)" = 7 ] || fail "cuMemFree_v2 freed '$(frees_of cuMemFree_v2)', want 7"
analyze "$TEST_TMP/trace" -o "$TEST_TMP/report" >"$TEST_TMP/analyze.out" 2>&1 ||
	fail "analyze failed: $(head -n 3 "$TEST_TMP/analyze.out")"
grep -qx 'peak memory: 3145728 bytes at kernel 0 (in_created)' "$TEST_TMP/analyze.out" ||
	fail "wrong peak: $(grep '^peak memory' "$TEST_TMP/analyze.out")"
live=$(awk -F, 'NR > 1 { print $2 }' "$TEST_TMP/report/memory.csv" | paste -sd, -)
[ "$live" = 3145728,3145728,2097152,1048576 ] || fail "live bytes per kernel $live, want 3,3,2,1 MiB"
# The simulated driver freed what the trace ended: its own samples agree.
grep -q '^untrackable: 0 bytes at the peak (.*max 0)$' "$TEST_TMP/analyze.out" ||
	fail "device and trace disagree: $(grep '^untrackable' "$TEST_TMP/analyze.out")"
grep -q '^inconsistent' "$TEST_TMP/analyze.out" && fail "$(grep '^inconsistent' "$TEST_TMP/analyze.out")"
grep -q '^incomplete' "$TEST_TMP/analyze.out" && fail "loss reported: $(grep '^incomplete' "$TEST_TMP/analyze.out")"
exit 0
