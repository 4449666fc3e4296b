# Sourced by test_energy.sh and test_energy_no_nvml.sh after tests/e2e/lib.sh:
# sets $workload (energy_kernels, checked built with the simulated NVML) and
# the simulated power settings both tests use, runs the workload once
# untraced (the reference output and ground truth), defines run NAME
# [ENV...] -- RECORD_ARGS... (record, compare with the reference, analyze)
# and power_events TRACE. Must never run a test of its own.
workload="$WORKLOADS/energy_kernels"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13" \
	"$SIMGPU_LIB/libnvidia-ml.so.1"
export SIMGPU_TIME_SCALE=1 SIMGPU_IDLE_POWER_MW=30000
mkdir "$e2e_tmp/truth-untraced"
untraced "$workload" "$e2e_tmp/truth-untraced" >"$e2e_tmp/untraced.out" 2>"$e2e_tmp/untraced.err" ||
	fail "untraced energy_kernels failed: $(tail -n 1 "$e2e_tmp/untraced.err")"

# run NAME [ENV...] -- RECORD_ARGS...: records the workload into $e2e_tmp/NAME
run() {
	local name=$1
	shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	mkdir -p "$e2e_tmp/$name.truth"
	env "${envs[@]}" "${tracer_env[@]}" "$DNNTRACE" record "$@" \
		-o "$e2e_tmp/$name.trace" -- "$workload" "$e2e_tmp/$name.truth" \
		>"$e2e_tmp/$name.out" 2>"$e2e_tmp/$name.err"
	local status=$?
	[ "$status" = 0 ] || fail "$name: record exited $status: $(tail -n 2 "$e2e_tmp/$name.err")"
	cmp -s "$e2e_tmp/untraced.out" "$e2e_tmp/$name.out" || fail "$name: stdout differs when traced"
	diff -r "$e2e_tmp/truth-untraced" "$e2e_tmp/$name.truth" >/dev/null ||
		fail "$name: ground truth differs when traced"
	check_no_discarded "$e2e_tmp/$name.trace"
	analyze "$e2e_tmp/$name.trace" -o "$e2e_tmp/$name.report" >"$e2e_tmp/$name.summary" \
		2>"$e2e_tmp/$name.analyze.err" ||
		fail "$name: analyze exited $?: $(tail -n 1 "$e2e_tmp/$name.analyze.err")"
	cmp -s "$e2e_tmp/$name.summary" "$e2e_tmp/$name.report/summary.txt" ||
		fail "$name: stdout is not summary.txt"
}

power_events() { babeltrace2 "$1" 2>/dev/null | grep -c 'dnntrace_gpu:power'; }
