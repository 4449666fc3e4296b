#!/usr/bin/env bash
# End-to-end: `dnntrace record --relay HOST:PORT:DATA_PORT` streams the
# recording of 3 DDP-style ranks (ddp_launch.sh, torch_async_alloc) to an
# lttng-relayd that this test starts on localhost, on free ports, and stops
# afterwards. The trace lands in the relayd's output directory under
# HOSTNAME/NAME (-o NAME), where record says it is; analyzed there it gives
# one report per rank equal to its ground truth, and the summary across
# them. --status-file keeps the recording's status (record cannot write
# into the relayed trace): copied into it, the analysis counts no loss.
# Bad --relay values are one line on stderr and status 1.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/torch_async_alloc"
launch="$E2E_DIR/ddp_launch.sh"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"
command -v lttng-relayd >/dev/null || skip "lttng-relayd not installed"

for bad in "" "host:0" "host:99999" "host:12:x" "a b" "host:5342:65536"; do
	err=$("$DNNTRACE" record --simgpu --relay "$bad" -- true 2>&1 >/dev/null)
	status=$?
	[ "$status" = 1 ] && [ "$(echo "$err" | wc -l)" = 1 ] ||
		fail "--relay '$bad': status $status, said: $err"
done
err=$("$DNNTRACE" record --relay 127.0.0.1 -o ../escape -- true 2>&1 >/dev/null)
[ $? = 1 ] && echo "$err" | grep -q 'relative name' || fail "-o ../escape with --relay accepted: $err"

# Three ports free now (bound together, so distinct), for control, data,
# live. Free now is not free later: another test on the machine may bind one
# before the relayd does, which then exits with "Address already in use";
# then new ports, and again (up to 10 times).
relay_out="$e2e_tmp/relayd"
mkdir -p "$e2e_tmp/relayd-home"
relayd=
trap '[ -n "$relayd" ] && kill "$relayd" 2>/dev/null; wait 2>/dev/null; rm -rf "$e2e_tmp"' EXIT
start_relayd() {   # sets ctrl data live relayd; fails unless it listens
	read -r ctrl data live < <(python3 -c '
import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
	LTTNG_HOME="$e2e_tmp/relayd-home" lttng-relayd -o "$relay_out" \
		-C "tcp://127.0.0.1:$ctrl" -D "tcp://127.0.0.1:$data" -L "tcp://127.0.0.1:$live" \
		>"$e2e_tmp/relayd.log" 2>&1 &
	relayd=$!
	for _ in $(seq 100); do
		(exec 3<>"/dev/tcp/127.0.0.1/$data") 2>/dev/null && return 0
		kill -0 "$relayd" 2>/dev/null || { wait "$relayd" 2>/dev/null; relayd=; return 1; }
		sleep 0.1
	done
	return 1
}
for attempt in $(seq 10); do
	start_relayd && break
	grep -q 'Address already in use' "$e2e_tmp/relayd.log" ||
		fail "lttng-relayd did not start: $(tail -n 2 "$e2e_tmp/relayd.log")"
	echo "attempt $attempt: a port was taken before lttng-relayd bound it, new ports" >&2
done
[ -n "$relayd" ] || fail "lttng-relayd did not start in 10 attempts: $(tail -n 2 "$e2e_tmp/relayd.log")"

"$PRIVATE_LTTNG" env "${tracer_env[@]}" "$DNNTRACE" record --simgpu --relay "127.0.0.1:$ctrl:$data" \
	-o ddp/run1 --status-file "$e2e_tmp/status" -- "$launch" 3 "$e2e_tmp/truth" "$workload" \
	>"$e2e_tmp/traced.out" 2>"$e2e_tmp/record.err"
status=$?
[ "$status" = 0 ] || fail "record --relay exited $status: $(tail -n 2 "$e2e_tmp/record.err")"
trace="$relay_out/$(hostname)/ddp/run1"
grep -qF "$(hostname)/ddp/run1" "$e2e_tmp/record.err" || fail "record does not say where the trace is: $(cat "$e2e_tmp/record.err")"
[ -d "$trace" ] || fail "no trace at $trace: $(find "$relay_out" -maxdepth 4 | head)"
kill "$relayd" && wait "$relayd" 2>/dev/null   # the relayd closes its files
[ "$(grep -c '^torch_async_alloc: rank [012] device [012],' "$e2e_tmp/traced.out")" = 3 ] ||
	fail "not all ranks ran: $(cat "$e2e_tmp/traced.out")"
check_no_discarded "$trace"
# The status record could not write into the relayed trace, kept here: a
# complete recording, the 3 ranks among the processes that handed LTTng
# events; copied into the trace, the analysis finds no event lost.
grep -qx 'state complete' "$e2e_tmp/status" && grep -qx 'command_status 0' "$e2e_tmp/status" ||
	fail "--status-file: $(head -n 4 "$e2e_tmp/status")"
ranks=$(awk '$1 == "process" && $3 > 0' "$e2e_tmp/status" | wc -l)
[ "$ranks" -ge 3 ] || fail "--status-file lists $ranks processes with events, want the 3 ranks"
grep -q -- "--status-file\|status is in $e2e_tmp/status" "$e2e_tmp/record.err" ||
	fail "record does not say where the status is: $(tail -n 3 "$e2e_tmp/record.err")"
[ ! -e "$trace/dnntrace-status" ] || fail "a status file in the relayed trace: who wrote it?"
cp "$e2e_tmp/status" "$trace/dnntrace-status"

analyze "$trace" -o "$e2e_tmp/report" >/dev/null 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
python3 "$E2E_DIR/check_ranks.py" "$e2e_tmp/truth" "$e2e_tmp/report" 3 ||
	fail "the reports of the relayed trace differ from the ground truth"
grep -q '^incomplete' "$e2e_tmp/report/summary.txt" &&
	fail "the status counts events lost: $(grep -m1 '^incomplete' "$e2e_tmp/report/summary.txt")"
# and the analysis does read it: 5 more events claimed for one rank are 5 lost
awk '$1 == "process" && $3 > 0 && !done { $3 += 5; done = 1 } { print }' "$e2e_tmp/status" \
	>"$trace/dnntrace-status"
analyze "$trace" -o "$e2e_tmp/report2" >/dev/null 2>&1 || fail "analyze with the changed status failed"
grep -q '^incomplete: 5 events lost' "$e2e_tmp/report2/summary.txt" ||
	fail "5 events more in the status, the summary says: $(grep -m1 '^incomplete' "$e2e_tmp/report2/summary.txt")"
err=$("$DNNTRACE" record --simgpu -o "$e2e_tmp/local" --status-file "$e2e_tmp/s2" -- true 2>&1 >/dev/null)
[ $? = 1 ] && echo "$err" | grep -q 'is for --relay' || fail "--status-file without --relay: $err"

# The relayd is gone: record says so and never runs the command.
out=$("$PRIVATE_LTTNG" "$DNNTRACE" record --simgpu --relay "127.0.0.1:$ctrl:$data" -- echo RAN 2>"$e2e_tmp/gone.err")
status=$?
[ "$status" = 1 ] && [ -z "$out" ] && grep -q 'relayd' "$e2e_tmp/gone.err" ||
	fail "record to a stopped relayd: status $status, stdout '$out', said: $(cat "$e2e_tmp/gone.err")"
