#!/usr/bin/env bash
# crash_modes_check.sh MODE...: the end-to-end check of a traced program that
# ends abnormally, run by test_crash_signals.sh, test_crash_kill.sh,
# test_crash_kill_busy.sh and test_crash_exits.sh for their modes of
# tests/workloads/crash_modes (SIGSEGV with and without its own handler,
# abort, SIGKILL from outside when idle and while 4 threads launch, SIGTERM,
# _exit, exit() from a second thread, return from main while threads still
# launch): `dnntrace record` exits with the program's status, leaves no LTTng
# session, does not hang, and the trace, readable by babeltrace2 and the
# analyzer, holds exactly the calls the program says it made before the end
# (crash_modes writes them). GPU records: all of them, except after SIGKILL,
# where the ones CUPTI still held in the process are lost by nature
# (asserted: none, as documented). segv_handler: the tracer's power sampler
# is stopped before the program's own handler runs.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/crash_modes"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"

# No core files in the build directory: the status is the same without them.
ulimit -c 0

[ $# -gt 0 ] || fail "usage: crash_modes_check.sh MODE..."
modes=("$@")

# run_mode MODE TRUTH_DIR CMD...: runs CMD (which runs crash_modes MODE
# TRUTH_DIR) bounded by timeout; for kill and kill_busy, SIGKILLs the
# workload once it has written its pid (sigterm: SIGTERM). Returns CMD's status (124: it hung).
run_mode() {
	local mode=$1 truth=$2
	shift 2
	mkdir -p "$truth"
	timeout -k 5 40 "$@" &
	local pid=$! _
	local signal=KILL
	case "$mode" in
	sigterm) signal=TERM ;&
	kill|kill_busy)
		# Soon after: kill_busy's threads launch all the while.
		for _ in $(seq 3000); do [ -s "$truth/pid" ] && break; sleep 0.01; done
		[ -s "$truth/pid" ] && kill -s "$signal" "$(cat "$truth/pid")" ;;
	esac
	wait "$pid"
}
export -f run_mode

for mode in "${modes[@]}"; do
	mkdir -p "$e2e_tmp/$mode"
	run_mode "$mode" "$e2e_tmp/$mode/truth-untraced" \
		env LD_LIBRARY_PATH="$SIMGPU_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$workload" "$mode" "$e2e_tmp/$mode/truth-untraced" \
		>"$e2e_tmp/$mode/untraced.out" 2>"$e2e_tmp/$mode/untraced.err"
	echo $? >"$e2e_tmp/$mode/untraced.status"
done

# All traced runs in one private session daemon, which is then asked for
# what sessions are left.
# A buffer LTTng cannot complete (kill_busy) must not hold the test for 60 s.
export DNNTRACE_TEARDOWN_TIMEOUT=10
"$PRIVATE_LTTNG" env "${tracer_env[@]}" bash -c '
	dnntrace=$1 workload=$2 tmp=$3
	shift 3
	for mode in "$@"; do
		run_mode "$mode" "$tmp/$mode/truth" "$dnntrace" record --simgpu -o "$tmp/$mode/trace" -- \
			"$workload" "$mode" "$tmp/$mode/truth" >"$tmp/$mode/traced.out" 2>"$tmp/$mode/record.err"
		echo $? >"$tmp/$mode/traced.status"
	done
	lttng list 2>&1 | grep -c "dnntrace-" >"$tmp/leftover"
	exit 0' bash "$DNNTRACE" "$workload" "$e2e_tmp" "${modes[@]}" ||
	fail "could not run the traced programs in a private session daemon"
[ "$(cat "$e2e_tmp/leftover")" = 0 ] || fail "LTTng sessions left behind: $(cat "$e2e_tmp/leftover")"

count() { awk -v name="$1" '$1 == name { print $2 }' "$2"; }
# events NAME TRACE_TXT: how many NAME events (provider:event) the trace holds.
events() { grep -c " $1: " "$2"; }

for mode in "${modes[@]}"; do
	dir=$e2e_tmp/$mode
	counts=$dir/truth/counts
	[ -s "$counts" ] || fail "$mode: the traced workload wrote no counts: $(tail -n 2 "$dir/record.err")"
	allocs=$(count allocs "$counts") launches=$(count launches "$counts")
	expected=$(count status "$counts")
	untraced=$(cat "$dir/untraced.status") traced=$(cat "$dir/traced.status")
	[ "$untraced" != 124 ] && [ "$traced" != 124 ] ||
		fail "$mode: hung (untraced $untraced, traced $traced)"
	# A sanitizer's fault handler ends the program its own way: compare with
	# the untraced run, and with the mode's shell status in a normal build.
	[ "$traced" = "$untraced" ] ||
		fail "$mode: dnntrace record exited $traced, the program untraced $untraced"
	[ -n "$asan_runtime" ] || [ "$traced" = "$expected" ] ||
		fail "$mode: dnntrace record exited $traced, expected $expected"
	cmp -s "$dir/untraced.out" "$dir/traced.out" || fail "$mode: stdout differs when traced"
	grep -q "trace written to" "$dir/record.err" || fail "$mode: record did not say where the trace is"

	babeltrace2 "$dir/trace" >"$dir/trace.txt" 2>"$dir/bt.err" ||
		fail "$mode: babeltrace2 cannot read the trace: $(head -n 2 "$dir/bt.err")"
	[ ! -s "$dir/bt.err" ] || fail "$mode: babeltrace2 warns: $(head -n 2 "$dir/bt.err")"

	if [ "$mode" = segv_handler ] && grep -q "segv handler ran" "$dir/traced.out"; then
		# The power sampler writes events on a thread of its own: the
		# crash flush, which runs before the program's handler, must
		# have stopped it, or the process could die in the middle of
		# one of its events (LTTng never completes that buffer: record
		# times out and its events are lost). It did run (samples).
		[ "$(events dnntrace_gpu:power "$dir/trace.txt")" -gt 0 ] ||
			fail "$mode: no power sample in the trace"
		handler=$(cat "$dir/truth/handler" 2>/dev/null)
		[ "$handler" = "power_sampler_threads 0" ] ||
			fail "$mode: the program's handler saw '${handler:-nothing}': the power sampler was still running after the crash flush"
	fi
	got_allocs=$(events dnntrace_api:alloc "$dir/trace.txt")
	got_launches=$(events dnntrace_api:launch "$dir/trace.txt")
	got_kernels=$(events dnntrace_gpu:kernel "$dir/trace.txt")
	got_links=$(events dnntrace_gpu:external_correlation "$dir/trace.txt")
	echo "$mode: status $traced, allocs $got_allocs/$allocs, launches $got_launches/$launches," \
		"GPU kernel records $got_kernels, correlation records $got_links"
	# Only a process killed from outside while writing events may leave an
	# incomplete LTTng buffer behind (see kill_busy below).
	stuck=
	if grep -q "did not finish writing the trace" "$dir/record.err"; then
		[ "$mode" = kill_busy ] || fail "$mode: $(grep "did not finish" "$dir/record.err")"
		stuck=1
	fi
	[ -n "$stuck" ] || [ "$got_allocs" = "$allocs" ] ||
		fail "$mode: $got_allocs alloc events, the program made $allocs"
	case "$mode" in
	main_return)
		# Main's own calls exactly; the workers' at least as many as they
		# had completed when main returned. Workers go on launching while
		# the process exits: work launched after the exit-time CUPTI flush
		# has its API event but no GPU record.
		min=$(( launches + $(count worker_launches_min "$counts") ))
		main_launches=$(grep " dnntrace_api:launch: " "$dir/trace.txt" |
			grep -Ec 'vpid = ([0-9]+), vtid = \1,')
		[ "$main_launches" = "$launches" ] ||
			fail "$mode: $main_launches launch events from main, it made $launches"
		[ "$got_launches" -ge "$min" ] || fail "$mode: $got_launches launch events, at least $min were made"
		[ "$got_kernels" -ge "$min" ] || fail "$mode: $got_kernels kernel records, at least $min launches completed"
		[ "$got_links" -ge "$min" ] || fail "$mode: $got_links correlation records, fewer than $min" ;;
	kill_busy)
		# Killed while 4 threads launch: every launch that had returned
		# (counted in a shared mapping that outlives the process) is in the
		# trace, plus at most one per thread whose event was written but
		# not yet counted. CUPTI delivered only the buffers it had filled.
		# Unless the kill hit a thread in the middle of writing an event
		# (about 1 run in 4 here): LTTng then never completes that buffer,
		# record says so after DNNTRACE_TEARDOWN_TIMEOUT and what it held
		# is lost; nothing more is lost than was announced.
		done=$(od -An -t u8 -v "$dir/truth/progress" | awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s + 0 }')
		min=$(( launches + done )) max=$(( launches + done + $(count workers "$counts") ))
		if [ -n "$stuck" ]; then
			echo "$mode: killed in the middle of an event: LTTng kept $got_launches of $min launch events"
			[ "$got_launches" -le "$max" ] || fail "$mode: $got_launches launch events, at most $max made"
			continue
		fi
		[ "$got_launches" -ge "$min" ] && [ "$got_launches" -le "$max" ] ||
			fail "$mode: $got_launches launch events, $min launches had returned (at most $max made)"
		[ "$got_kernels" -le "$got_launches" ] ||
			fail "$mode: $got_kernels kernel records for $got_launches launches"
		echo "$mode: $min launches returned before SIGKILL; GPU records lost: $(( got_launches - got_kernels ))" ;;
	kill)
		[ "$got_launches" = "$launches" ] || fail "$mode: $got_launches launch events, the program made $launches"
		# CUPTI delivers a buffer when it is full (4 MiB) or flushed; SIGKILL
		# allows neither, so every record it held is gone. The links are
		# not CUPTI records in the default --gpu-records=work: written by
		# the CUPTI callback during each launch, they are all there.
		[ "$got_kernels" = 0 ] ||
			fail "$mode: $got_kernels kernel records after SIGKILL (the documented loss is all $launches)"
		[ "$got_links" = "$launches" ] ||
			fail "$mode: $got_links correlation records after SIGKILL, want one per launch ($launches)" ;;
	*)
		[ "$got_launches" = "$launches" ] || fail "$mode: $got_launches launch events, the program made $launches"
		[ "$got_kernels" = "$launches" ] || fail "$mode: $got_kernels kernel records for $launches launches"
		[ "$got_links" = "$launches" ] || fail "$mode: $got_links correlation records for $launches launches" ;;
	esac

	analyze "$dir/trace" -o "$dir/report" >/dev/null 2>"$dir/analyze.err" ||
		fail "$mode: analyze exited $?: $(tail -n 1 "$dir/analyze.err")"
	rows=$(( $(wc -l <"$dir/report/kernels.csv") - 1 ))
	if [ "$got_kernels" = 0 ]; then
		# No GPU record: the analyzer stands the launches in for kernels, and says so.
		[ "$rows" = "$got_launches" ] || fail "$mode: analyzer lists $rows kernels, $got_launches were launched"
		grep -q "kernel times missing" "$dir/report/summary.txt" ||
			fail "$mode: the summary does not say kernel times are missing"
	else
		[ "$rows" = "$got_kernels" ] || fail "$mode: analyzer lists $rows kernels, the trace has $got_kernels"
		# The simulated kernels run exactly 2000 ns: their times came from CUPTI.
		timed=$(awk -F, 'NR > 1 && $6 == 2000' "$dir/report/kernels.csv" | wc -l)
		[ "$timed" = "$rows" ] || fail "$mode: $timed of $rows kernels have their GPU time"
		# Launches whose records never came are counted, never hidden:
		# the successful launch events whose call has no kernel record (a
		# kernel may also have a record and no launch event, when the
		# process ended inside the launch call).
		missing=$(python3 - "$dir/trace.txt" <<'PY'
import re, sys
launched, call_of, ran = set(), {}, set()
for line in open(sys.argv[1]):
    if " dnntrace_api:launch: " in line and "result = 0," in line:
        launched.add(int(re.search(r"call_id = (\d+)", line).group(1)))
    elif " dnntrace_gpu:external_correlation: " in line:
        m = re.search(r"correlation_id = (\d+), call_id = (\d+)", line)
        call_of[int(m.group(1))] = int(m.group(2))
    elif " dnntrace_gpu:kernel: " in line:
        ran.add(int(re.search(r"correlation_id = (\d+)", line).group(1)))
print(len(launched - {call_of[c] for c in ran if c in call_of}))
PY
)
		said=$(sed -nE 's/^launches without a kernel record: ([0-9]+) .*/\1/p' "$dir/report/summary.txt")
		[ "${said:-0}" = "$missing" ] ||
			fail "$mode: summary counts ${said:-no} launches without records, $missing have none"
	fi
done
exit 0
