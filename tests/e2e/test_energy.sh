#!/usr/bin/env bash
# End-to-end: energy per kernel and op (tests/workloads/energy_kernels.c:
# five long kernels of three powers, back to back, inside NVTX ops) recorded
# with `dnntrace record --simgpu --power-ms 5` at SIMGPU_TIME_SCALE=1, so
# the tracer's NVML sampler reads the simulated libnvidia-ml.so.1 while they
# run. energy.csv must match the power model's exact integral, written by
# the workload (check_energy.py states the tolerances, computed from the
# trace's own samples):
#   1. with the energy counter (attribution by counter deltas);
#   2. without it (SIMGPU_NVML_ENERGY=0: power x time, 3-sigma filter);
# (Without NVML, --power-ms 0 and bad values: test_energy_no_nvml.sh.)
# The whole test runs under one private session daemon (starting one takes
# seconds on a loaded machine), which every record below uses.
if [ "${DNNTRACE_ENERGY_TEST_INSIDE:-}" != 1 ]; then
	exec "$DNNTRACE_ROOT/tests/lib/private_lttng.sh" env DNNTRACE_ENERGY_TEST_INSIDE=1 bash "$0" "$@"
fi
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
HOTTEST_MW=250000   # the workload's most powerful kernel

. "$DNNTRACE_ROOT/tests/e2e/energy_runs.sh"

# 1. energy counter
run counter -- --simgpu --power-ms 5
grep -q 'NVML' "$e2e_tmp/counter.err" && fail "counter: NVML warning: $(grep NVML "$e2e_tmp/counter.err")"
grep -q '^energy: .* (.* samples, NVML energy counter)$' "$e2e_tmp/counter.summary" ||
	fail "counter: summary has no energy line: $(grep energy "$e2e_tmp/counter.summary")"
python3 "$E2E_DIR/check_energy.py" counter "$e2e_tmp/counter.truth" "$e2e_tmp/counter.report" \
	"$e2e_tmp/counter.trace" "$SIMGPU_IDLE_POWER_MW" "$HOTTEST_MW" >"$e2e_tmp/counter.check" ||
	fail "counter: energy.csv differs from the power model: $(head -n 3 "$e2e_tmp/counter.check")"
cat "$e2e_tmp/counter.check"   # which case held, for the log

# 2. power readings only
run power SIMGPU_NVML_ENERGY=0 -- --simgpu --power-ms 5
grep -q '^energy: .* (.* samples, NVML power x time)$' "$e2e_tmp/power.summary" ||
	fail "power: summary has no energy line: $(grep energy "$e2e_tmp/power.summary")"
python3 "$E2E_DIR/check_energy.py" power "$e2e_tmp/power.truth" "$e2e_tmp/power.report" \
	"$e2e_tmp/power.trace" "$SIMGPU_IDLE_POWER_MW" "$HOTTEST_MW" >"$e2e_tmp/power.check" ||
	fail "power: energy.csv differs from the power model: $(head -n 3 "$e2e_tmp/power.check")"
cat "$e2e_tmp/power.check"   # which case held, for the log

exit 0
