#!/usr/bin/env bash
# End-to-end: when LTTng never finishes destroying the session (as 2.13 does
# once a program was SIGKILLed while writing an event; test_crash_kill.sh
# meets that now and then), `dnntrace record` gives up after
# DNNTRACE_TEARDOWN_TIMEOUT, says so, still exits with the program's status
# and leaves no session. A stand-in `lttng` first in PATH destroys for real,
# then hangs, as LTTng's client does then.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
require_built "$DNNTRACE_BUILD/lib/libdnntrace.so"
real_lttng=$(command -v lttng) || skip "lttng not installed"

mkdir -p "$e2e_tmp/bin"
cat >"$e2e_tmp/bin/lttng" <<EOF
#!/usr/bin/env bash
if [ "\$1" = destroy ] && [ "\$2" != --no-wait ]; then
	"$real_lttng" "\$@"
	exec sleep 300
fi
exec "$real_lttng" "\$@"
EOF
chmod +x "$e2e_tmp/bin/lttng"

start=$(date +%s)
"$PRIVATE_LTTNG" env "${tracer_env[@]}" PATH="$e2e_tmp/bin:$PATH" DNNTRACE_TEARDOWN_TIMEOUT=2 bash -c '
	timeout -k 5 60 "$0" record -o "$1/trace" -- sh -c "exit 5" 2>"$1/record.err"
	status=$?
	echo "leftover sessions: $(lttng list 2>/dev/null | grep -c "dnntrace-")" >&2
	exit $status' "$DNNTRACE" "$e2e_tmp" 2>"$e2e_tmp/run.log"
status=$?
elapsed=$(( $(date +%s) - start ))
[ "$status" = 5 ] || fail "record exited $status, the program 5: $(cat "$e2e_tmp/record.err")"
grep -q "did not finish writing the trace in 2s" "$e2e_tmp/record.err" ||
	fail "record did not say the trace is incomplete: $(cat "$e2e_tmp/record.err")"
grep -q "leftover sessions: 0" "$e2e_tmp/run.log" || fail "session left: $(cat "$e2e_tmp/run.log")"
[ "$elapsed" -lt 40 ] || fail "record took ${elapsed}s with a 2 s teardown limit"
exit 0
