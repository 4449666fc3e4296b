#!/usr/bin/env bash
# End-to-end: memory by category, Untrackable and swap opportunities
# (tests/workloads/mem_categories.c: seven tensors of known sizes and
# names, nine kernels of exact durations) on a simulated GPU whose context
# takes SIMGPU_CONTEXT_BYTES. Checks against ground truth by construction
# (check_memory_report.py): categories.csv and categories_time.csv per
# category with and without a --categories rule file, Untrackable = the
# context's bytes, swap.csv feasibility at two link speeds and the peak
# with every feasible swap (also the hand-computed summary lines); the
# tracer's mem_info samples (every 2nd allocation here, none with 0, the
# default after a bad value); bad --categories / --link-gbps input; tracing changes neither output nor status.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/mem_categories"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"
context=$((64 * 1024 * 1024))
check() { python3 "$E2E_DIR/check_memory_report.py" "$@"; }

# DNNTRACE_MEMINFO_EVERY is read by the tracer alone: the untraced run has none.
SIMGPU_CONTEXT_BYTES=64M DNNTRACE_MEMINFO_EVERY=2 record_like_untraced "$workload"
samples=$(babeltrace2 "$e2e_tmp/trace" 2>/dev/null | grep -c 'dnntrace_api:mem_info')
# 7 allocations on one thread, sampled at the 1st, 2nd, 4th and 6th
[ "$samples" = 4 ] || fail "$samples mem_info samples, want 4 (DNNTRACE_MEMINFO_EVERY=2, 7 allocations)"

printf '# keyword category (first match wins)\nbatch input\n\nfc2   layer2  # fc2 weights and outputs\n' >"$e2e_tmp/rules"
analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" --categories "$e2e_tmp/rules" >"$e2e_tmp/summary.out" 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
cmp -s "$e2e_tmp/summary.out" "$e2e_tmp/report/summary.txt" || fail "stdout is not summary.txt"
check "$e2e_tmp/truth" "$e2e_tmp/report" 1 64 "$context" >"$e2e_tmp/check.out" ||
	fail "with rules, 64 GB/s: $(head -n 3 "$e2e_tmp/check.out")"
# worked out by hand from the file comment of mem_categories.c
for line in \
	"memory by category at the peak (bytes): input 2097152, layer2 3145728, parameter 4194304, activation 4194304, Others 4194304" \
	"untrackable: $context bytes at the peak (device memory in use minus traced tensors; 4 samples, max $context)" \
	"swap (link 64 GB/s each way): 6 of 7 inactive periods feasible; peak with every feasible swap: 15728640 bytes at kernel 7 (traced: 17825792)"; do
	grep -qxF "$line" "$e2e_tmp/report/summary.txt" || fail "summary lacks: $line"
done

analyze "$e2e_tmp/trace" -o "$e2e_tmp/report-slow" --link-gbps 2 >/dev/null 2>"$e2e_tmp/analyze2.err" ||
	fail "analyze --link-gbps 2 exited $?: $(tail -n 1 "$e2e_tmp/analyze2.err")"
check "$e2e_tmp/truth" "$e2e_tmp/report-slow" 0 2 "$context" >"$e2e_tmp/check2.out" ||
	fail "without rules, 2 GB/s: $(head -n 3 "$e2e_tmp/check2.out")"
grep -qxF "swap (link 2 GB/s each way): 0 of 7 inactive periods feasible; peak with every feasible swap: 17825792 bytes at kernel 3 (traced: 17825792)" \
	"$e2e_tmp/report-slow/summary.txt" || fail "2 GB/s: swap summary line wrong: $(grep '^swap' "$e2e_tmp/report-slow/summary.txt")"

# No samples: Untrackable is unknown, never 0.
DNNTRACE_MEMINFO_EVERY=0 record "$e2e_tmp/trace0" "$workload" "$e2e_tmp/truth0" >/dev/null 2>"$e2e_tmp/record0.err" ||
	fail "record (no samples) failed: $(tail -n 2 "$e2e_tmp/record0.err")"
analyze "$e2e_tmp/trace0" -o "$e2e_tmp/report0" >/dev/null 2>&1 || fail "analyze (no samples) failed"
grep -qxF "untrackable: unknown (no device memory samples in the trace)" "$e2e_tmp/report0/summary.txt" ||
	fail "no samples: summary does not say Untrackable is unknown"
grep -qxF "Untrackable,,,," "$e2e_tmp/report0/categories.csv" || fail "no samples: Untrackable row is not empty"

# A bad DNNTRACE_MEMINFO_EVERY: one warning, then the default (a thread's
# 1st, 2nd, 4th, ... allocations, then every 128th: 3 samples of 7).
DNNTRACE_MEMINFO_EVERY=often record "$e2e_tmp/trace-bad" "$workload" "$e2e_tmp/truth-bad" >/dev/null 2>"$e2e_tmp/record-bad.err" ||
	fail "record (bad DNNTRACE_MEMINFO_EVERY) failed: $(tail -n 2 "$e2e_tmp/record-bad.err")"
[ "$(grep -c "DNNTRACE_MEMINFO_EVERY='often' is not a count" "$e2e_tmp/record-bad.err")" = 1 ] ||
	fail "bad DNNTRACE_MEMINFO_EVERY: no single warning: $(cat "$e2e_tmp/record-bad.err")"
samples=$(babeltrace2 "$e2e_tmp/trace-bad" 2>/dev/null | grep -c 'dnntrace_api:mem_info')
[ "$samples" = 3 ] || fail "bad DNNTRACE_MEMINFO_EVERY: $samples samples, want 3 (the default)"

# simgpu refuses a context it cannot hold: exit 2, one line.
for bad in lots 2G; do
	SIMGPU_MEM_BYTES=1G SIMGPU_CONTEXT_BYTES=$bad untraced "$workload" "$e2e_tmp/truth-x" >/dev/null 2>"$e2e_tmp/sim.err"
	status=$?
	[ "$status" = 2 ] && [ "$(grep -c . "$e2e_tmp/sim.err")" = 1 ] && grep -q "SIMGPU_CONTEXT_BYTES='$bad'" "$e2e_tmp/sim.err" ||
		fail "SIMGPU_CONTEXT_BYTES=$bad: exit $status: $(cat "$e2e_tmp/sim.err")"
done

# Bad input: one line on stderr, exit 1 (usage) or 2 (unreadable).
expect_error() {
	local want=$1 pattern=$2
	shift 2
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$@" >/dev/null 2>"$e2e_tmp/err"
	local got=$?
	[ "$got" = "$want" ] || fail "dnntrace-analyze $*: exit $got, want $want"
	[ "$(wc -l <"$e2e_tmp/err")" = 1 ] || fail "dnntrace-analyze $*: not one line: $(cat "$e2e_tmp/err")"
	grep -q -- "$pattern" "$e2e_tmp/err" || fail "dnntrace-analyze $*: $(cat "$e2e_tmp/err")"
}
printf 'batch input\nfc2 layer2 extra\n' >"$e2e_tmp/bad-rules"
printf 'weight Untrackable\n' >"$e2e_tmp/reserved-rules"
expect_error 2 "cannot read --categories file" "$e2e_tmp/trace" -o "$e2e_tmp/x1" --categories "$e2e_tmp/absent"
expect_error 1 "bad-rules:2: expected 'keyword category'" "$e2e_tmp/trace" -o "$e2e_tmp/x2" --categories "$e2e_tmp/bad-rules"
expect_error 1 "reserved-rules:1:" "$e2e_tmp/trace" -o "$e2e_tmp/x3" --categories "$e2e_tmp/reserved-rules"
expect_error 1 "--link-gbps needs" "$e2e_tmp/trace" -o "$e2e_tmp/x4" --link-gbps 0
expect_error 1 "--link-gbps needs" "$e2e_tmp/trace" -o "$e2e_tmp/x5" --link-gbps fast
expect_error 1 "--categories needs" "$e2e_tmp/trace" -o "$e2e_tmp/x6" --categories
exit 0
