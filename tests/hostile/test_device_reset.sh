#!/usr/bin/env bash
# Semantics: cudaDeviceReset ends every tensor of the device. device_reset
# holds three 1 MiB tensors across a reset, then allocates three new ones:
# the trace frees the first three at the reset (one free event each, api
# cudaDeviceReset), and the peak is the real 3 MiB, not 6 MiB.
. "$DNNTRACE_ROOT/tests/hostile/lib.sh"
require_built "$WORKLOADS/device_reset"
hostile_record "$TEST_TMP/trace" "$WORKLOADS/device_reset" >"$TEST_TMP/out" 2>"$TEST_TMP/err" ||
	fail "record failed: $(cat "$TEST_TMP/err")"
resets=$(babeltrace2 "$TEST_TMP/trace" 2>/dev/null | grep 'dnntrace_api:free:' | grep -c '"cudaDeviceReset"')
[ "$resets" = 3 ] || fail "$resets free events of cudaDeviceReset, want 3"
analyze "$TEST_TMP/trace" -o "$TEST_TMP/report" >"$TEST_TMP/analyze.out" 2>&1 ||
	fail "analyze failed: $(head -n 3 "$TEST_TMP/analyze.out")"
grep -qx 'peak memory: 3145728 bytes at kernel 0 (reset_kernel)' "$TEST_TMP/analyze.out" ||
	fail "wrong peak: $(grep '^peak memory' "$TEST_TMP/analyze.out")"
grep -q '^incomplete' "$TEST_TMP/analyze.out" && fail "loss reported: $(grep '^incomplete' "$TEST_TMP/analyze.out")"
exit 0
