#!/usr/bin/env bash
# libdnntrace.so as NVTX injection library, set up as `dnntrace record` does
# (preloaded, and named by NVTX_INJECTION64_PATH): every push/pop and
# start/end call of nvtx_ranges (two worker threads, two created domains and
# the default one, A/W/Ex forms, registered strings, ranges crossing threads)
# is one event with the right names, domains, ids and nesting; marks leave
# none; the program prints the same as when run alone. Then the same with
# NVTX_INJECTION64_PATH alone, not preloaded.
. "$(dirname "$0")/lib.sh"

run_plain "$tmp/alone.out" "$tmp/alone.err" -- "$RANGES" "$tmp/alone.truth" 30 ||
	fail "nvtx_ranges alone failed: $(head -n 3 "$tmp/alone.err")"

record_nvtx "$tmp/trace" "$tmp/traced.out" "$tmp/traced.err" \
	"LD_PRELOAD=$tracer_preload" "NVTX_INJECTION64_PATH=$TRACER" -- "$RANGES" "$tmp/traced.truth" 30
rc=$?
[ "$rc" = 90 ] && fail "could not start an LTTng session"
[ "$rc" = 0 ] || fail "nvtx_ranges traced exited $rc: $(head -n 3 "$tmp/traced.err")"
diff -u "$tmp/alone.out" "$tmp/traced.out" >&2 || fail "the program printed something else when traced"

events "$tmp/trace" | python3 "$CHECK_RANGES" exact "$tmp/traced.truth" || fail "trace and NVTX calls differ"

# NVTX_INJECTION64_PATH alone (NVTX dlopens the library itself): the same events.
record_nvtx "$tmp/trace-injected" "$tmp/injected.out" "$tmp/injected.err" \
	"NVTX_INJECTION64_PATH=$TRACER" -- "$RANGES" "$tmp/injected.truth" 5
rc=$?
[ "$rc" = 0 ] || fail "nvtx_ranges injected, not preloaded, exited $rc: $(head -n 3 "$tmp/injected.err")"
events "$tmp/trace-injected" | python3 "$CHECK_RANGES" exact "$tmp/injected.truth" ||
	fail "injected without preload: trace and NVTX calls differ"
