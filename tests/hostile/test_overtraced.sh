#!/usr/bin/env bash
# Semantics: more traced bytes than the device reports in use is an
# inconsistency, flagged, never clamped away (the scripted emitter's
# "overtraced": three 1 MiB tensors live while the device's sample says
# 1 MiB in use, as after a free the trace missed).
. "$DNNTRACE_ROOT/tests/analysis/lib.sh"
record "$work/trace" "$emit" overtraced >/dev/null || fail "could not record the overtraced scenario"
"$analyze" "$work/trace" -o "$work/report" >"$work/out" 2>"$work/err" ||
	fail "analyze failed: $(cat "$work/err")"
grep -qx 'inconsistent: traced tensors exceed the device memory in use at 1 of 1 samples, by up to 2097152 bytes (a free the trace missed, or a wrong size)' \
	"$work/out" || fail "not flagged: $(grep -i 'untrack\|inconsist' "$work/out")"
grep -q '^untrackable: 0 bytes at the peak' "$work/out" || fail "untrackable: $(grep '^untrackable' "$work/out")"
exit 0
