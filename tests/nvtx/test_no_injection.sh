#!/usr/bin/env bash
# Without NVTX_INJECTION64_PATH, NVTX 3 never finds libdnntrace.so even when
# it is preloaded: no dnntrace_nvtx event, no crash, the same output. With
# the injection but no session listening: no crash, the same output.
. "$(dirname "$0")/lib.sh"

run_plain "$tmp/alone.out" "$tmp/alone.err" -- "$RANGES" "$tmp/alone.truth" 5 ||
	fail "nvtx_ranges alone failed: $(head -n 3 "$tmp/alone.err")"

record_nvtx "$tmp/trace" "$tmp/preloaded.out" "$tmp/preloaded.err" \
	"LD_PRELOAD=$tracer_preload" -- "$RANGES" "$tmp/preloaded.truth" 5
rc=$?
[ "$rc" = 90 ] && fail "could not start an LTTng session"
[ "$rc" = 0 ] || fail "nvtx_ranges preloaded exited $rc: $(head -n 3 "$tmp/preloaded.err")"
diff -u "$tmp/alone.out" "$tmp/preloaded.out" >&2 || fail "preloaded, the program printed something else"
# No event at all may mean no trace directory: then there is nothing to read.
if [ -n "$(find "$tmp/trace" -name metadata 2>/dev/null)" ]; then
	events "$tmp/trace" | python3 "$CHECK_RANGES" none || fail "NVTX traced without the injection path"
fi

run_plain "$tmp/unrecorded.out" "$tmp/unrecorded.err" \
	"LD_PRELOAD=$tracer_preload" "NVTX_INJECTION64_PATH=$TRACER" -- "$RANGES" "$tmp/unrecorded.truth" 5 ||
	fail "nvtx_ranges injected with no session failed: $(head -n 3 "$tmp/unrecorded.err")"
diff -u "$tmp/alone.out" "$tmp/unrecorded.out" >&2 || fail "injected with no session, the program printed something else"
echo "no injection path: no NVTX events; no session: same output"
