#!/usr/bin/env bash
# Loss accounting, a process that never registered with LTTng: the recorded
# command starts a child that cannot reach the recording's session daemon
# (as root a mount namespace of its own hides /var/run/lttng, otherwise
# another LTTNG_HOME): its 25 cudaMalloc/cudaFree pairs (50 traced calls) are
# not in the trace. record says so and exits 1; the summary gives the exact
# count as a lower bound of the events lost.
. "$DNNTRACE_ROOT/tests/hostile/lib.sh"
if [ "$(id -u)" = 0 ]; then
	unshare --mount --propagation private true 2>/dev/null || skip "no private mount namespace"
	# shellcheck disable=SC2016 # expanded by the inner shells
	hide='unshare --mount --propagation private sh -c "mount -t tmpfs tmpfs /var/run/lttng && exec \"\$0\" 25" "$0"'
else
	# shellcheck disable=SC2016
	hide='LTTNG_HOME="$1" "$0" 25'
fi
mkdir -p "$TEST_TMP/elsewhere"
hostile_record "$TEST_TMP/trace" sh -c '"$0" 10 && '"$hide" "$FLOOD" "$TEST_TMP/elsewhere" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
status=$?
[ "$status" = 1 ] || fail "record exited $status, not 1: $(cat "$TEST_TMP/err")"
grep -qx 'dnntrace: trace incomplete: 50 traced calls of 1 process(es) were not recorded (they ran before registering with LTTng)' \
	"$TEST_TMP/err" || fail "record did not count the unregistered calls: $(cat "$TEST_TMP/err")"
grep -c 'allocations freed' "$TEST_TMP/out" | grep -qx 2 || fail "a program did not run: $(cat "$TEST_TMP/out")"
# The first program is in the trace, whole.
[ "$(babeltrace2 "$TEST_TMP/trace" 2>/dev/null | grep -c 'dnntrace_api:alloc:')" = 10 ] ||
	fail "the registered program's 10 allocations are not all in the trace"
analyze "$TEST_TMP/trace" -o "$TEST_TMP/report" >"$TEST_TMP/analyze.out" 2>&1 ||
	fail "analyze failed: $(head -n 3 "$TEST_TMP/analyze.out")"
want='incomplete: at least 50 events lost (50 calls of 1 process made before it registered with LTTng)'
[ "$(loss_line "$TEST_TMP/analyze.out")" = "$want" ] ||
	fail "summary says '$(loss_line "$TEST_TMP/analyze.out")', not '$want'"
grep -qxF "$want" "$TEST_TMP/report/summary.txt" || fail "summary.txt lacks: $want"
exit 0
