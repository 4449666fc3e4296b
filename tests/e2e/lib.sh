# shellcheck shell=bash
# lib.sh: what the end-to-end tests add to tests/lib/common.sh: record and
# analyze wrappers that run dnntrace itself through tests/lib/private_lttng.sh
# (never against the machine's own session daemon), the untraced run on the
# simulated GPU, and the checks most workloads share (same behaviour traced
# and untraced, reports equal to ground truth). Sourced by tests/e2e/test_*.sh;
# must never start a global lttng-sessiond nor kill a process it did not start.
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

E2E_DIR="$DNNTRACE_ROOT/tests/e2e"
DNNTRACE="$DNNTRACE_ROOT/scripts/dnntrace"
WORKLOADS="$DNNTRACE_BUILD/workloads"
# analyze draws no pictures (seconds of matplotlib per call): the plot
# tests (tests/scripts/test_plot.sh) ask for them.
export DNNTRACE_PLOTS=0
# Simulated kernels take their real time (a few ms in all), so the host never
# runs ahead of the GPU: cudaFree and synchronisation wait for the device as on
# a real GPU, and host and GPU timestamps agree. Order comes from events.
export SIMGPU_TIME_SCALE=1
# The name these tests knew the scratch directory by.
e2e_tmp=$TEST_TMP

# tracer_env: the `env` arguments a traced command needs in the build under
# test (nothing for a normal build): dnntrace record prepends the tracer
# after the ASan runtime it finds first in LD_PRELOAD.
tracer_env=()
if [ -n "$asan_runtime" ]; then
	tracer_env=("LD_PRELOAD=$asan_runtime${LD_PRELOAD:+ $LD_PRELOAD}" "${asan_env[@]}")
fi

# record TRACE_DIR CMD...: dnntrace record --simgpu in a private session
# daemon; CMD's stdout goes to stdout, everything else to stderr.
record() {
	local trace=$1
	shift
	"${record_isolation[@]}" env "${tracer_env[@]}" "$DNNTRACE" record --simgpu -o "$trace" -- "$@"
}

# untraced CMD...: the same program on the simulated GPU, no tracer.
untraced() {
	LD_LIBRARY_PATH="$SIMGPU_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"
}

analyze() {
	"$DNNTRACE" analyze "$@"
}

compare() {
	python3 "$E2E_DIR/compare.py" "$@"
}

# check_no_discarded TRACE_DIR: LTTng's discarded-events count must be zero
# (babeltrace2 warns about any discarded events on stderr).
check_no_discarded() {
	local warnings
	warnings=$(babeltrace2 "$1" 2>&1 >/dev/null | grep -i 'discarded' | head -n 3)
	[ -z "$warnings" ] || fail "events lost: $warnings"
}

# record_like_untraced [--stdout-only] WORKLOAD: runs `WORKLOAD TRUTH_DIR` on
# the simulated GPU untraced (truth in $e2e_tmp/truth-untraced) and under
# dnntrace record (trace in $e2e_tmp/trace, truth in $e2e_tmp/truth): both
# must succeed, print the same and (unless --stdout-only) write the same
# ground truth, and no event may be lost. Environment assignments before the
# call reach both runs.
record_like_untraced() {
	local same_truth=1
	if [ "$1" = --stdout-only ]; then same_truth=0; shift; fi
	local workload=$1 name status
	name=$(basename "$workload")
	untraced "$workload" "$e2e_tmp/truth-untraced" >"$e2e_tmp/untraced.out" 2>"$e2e_tmp/untraced.err" ||
		fail "untraced $name failed: $(tail -n 1 "$e2e_tmp/untraced.err")"
	record "$e2e_tmp/trace" "$workload" "$e2e_tmp/truth" >"$e2e_tmp/traced.out" 2>"$e2e_tmp/record.err"
	status=$?
	[ "$status" = 0 ] || fail "record exited $status: $(tail -n 2 "$e2e_tmp/record.err")"
	cmp -s "$e2e_tmp/untraced.out" "$e2e_tmp/traced.out" || fail "stdout differs when traced"
	if [ "$same_truth" = 1 ]; then
		diff -r "$e2e_tmp/truth-untraced" "$e2e_tmp/truth" >/dev/null || fail "ground truth differs when traced"
	fi
	check_no_discarded "$e2e_tmp/trace"
}

# check_api_paths ALLOC FREE LAUNCH KIND FAILURE: in the recorded trace
# (kept as text in $e2e_tmp/trace.txt) every tensor was created by one ALLOC
# and freed by one FREE, has mem_kind KIND, every launch is one LAUNCH, and
# the counts are the ground truth's (check_api_paths.py); FAILURE says what
# it means when not.
check_api_paths() {
	babeltrace2 "$e2e_tmp/trace" >"$e2e_tmp/trace.txt" 2>/dev/null || fail "babeltrace2 cannot read the trace"
	python3 "$E2E_DIR/check_api_paths.py" "$e2e_tmp/trace.txt" "$e2e_tmp/truth" "$1" "$2" "$3" "$4" ||
		fail "$5"
}

# check_library_workload WORKLOAD: the whole check of a workload that calls
# cuDNN/cuBLAS and writes exact-role truth (truth_exact_roles): identical
# stdout, status and truth traced and untraced, nothing lost, then the
# reports at kernel granularity against TRUTH and at op granularity
# against TRUTH/op.
check_library_workload() {
	local workload=$1 name
	name=$(basename "$workload")
	record_like_untraced "$workload"
	[ -f "$e2e_tmp/truth/op/kernels.csv" ] || fail "$name wrote no op-level truth"

	analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >"$e2e_tmp/summary.out" 2>"$e2e_tmp/analyze.err" ||
		fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
	cmp -s "$e2e_tmp/summary.out" "$e2e_tmp/report/summary.txt" || fail "stdout is not summary.txt"
	compare truth "$e2e_tmp/truth" "$e2e_tmp/report" ||
		fail "analyzer reports (kernel granularity) differ from ground truth"

	analyze "$e2e_tmp/trace" -o "$e2e_tmp/report-op" --granularity op >/dev/null 2>"$e2e_tmp/analyze-op.err" ||
		fail "analyze --granularity op exited $?: $(tail -n 1 "$e2e_tmp/analyze-op.err")"
	compare truth "$e2e_tmp/truth/op" "$e2e_tmp/report-op" ||
		fail "analyzer reports (op granularity) differ from ground truth"
}
