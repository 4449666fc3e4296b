#!/usr/bin/env bash
# Semantics: sizes near 2^63 and 2^64 (the scripted emitter's "huge": 2^63,
# 2^63 and 2^64-1 bytes, live together at one kernel) never wrap: the peak
# is the saturated 2^64-1, flagged, not "0 bytes" or "1 bytes"; the
# sanitizer build (make test's UBSan pass) finds no overflow in it.
. "$DNNTRACE_ROOT/tests/analysis/lib.sh"
record "$work/trace" "$emit" huge >/dev/null || fail "could not record the huge scenario"
"$analyze" "$work/trace" -o "$work/report" >"$work/out" 2>"$work/err" ||
	fail "analyze failed: $(cat "$work/err")"
[ ! -s "$work/err" ] || fail "analyze complained: $(head -n 3 "$work/err")"
grep -qx 'peak memory: 18446744073709551615 bytes at kernel 0 (huge_k)' "$work/out" ||
	fail "wrong peak: $(grep '^peak memory' "$work/out")"
grep -qx 'inconsistent sizes: traced tensors add up to more than 18446744073709551615 bytes (shown as that)' \
	"$work/out" || fail "the saturated sum is not flagged"
exit 0
