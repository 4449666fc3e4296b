#!/usr/bin/env bash
# End-to-end: the energy_kernels workload (test_energy.sh) recorded on the
# simulated stack WITHOUT libnvidia-ml.so.1 (a copy of its library
# directory less that file):
#   1. --power-ms 5: one warning line on stderr, the program's output,
#      status and ground truth unchanged, the trace complete (5 kernels) with
#      no power event, and an analysis that says there are no power samples
#      (energy.csv: its header alone);
#   2. --power-ms 0: no samples and no warning;
#   3. a bad --power-ms is refused with one line, before anything runs.
# The whole test runs under one private session daemon (starting one takes
# seconds on a loaded machine), which every record below uses.
if [ "${DNNTRACE_ENERGY_TEST_INSIDE:-}" != 1 ]; then
	exec "$DNNTRACE_ROOT/tests/lib/private_lttng.sh" env DNNTRACE_ENERGY_TEST_INSIDE=1 bash "$0" "$@"
fi
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"

. "$DNNTRACE_ROOT/tests/e2e/energy_runs.sh"

# 1. no NVML: the simulated stack without libnvidia-ml.so.1
mkdir "$e2e_tmp/no-nvml"
for lib in "$SIMGPU_LIB"/*; do
	[ "$(basename "$lib")" = libnvidia-ml.so.1 ] || ln -s "$lib" "$e2e_tmp/no-nvml/"
done
run none "LD_LIBRARY_PATH=$e2e_tmp/no-nvml${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" -- --power-ms 5
[ "$(grep -c 'NVML' "$e2e_tmp/none.err")" = 1 ] ||
	fail "none: want one NVML warning line, got: $(grep NVML "$e2e_tmp/none.err")"
grep -q '^dnntrace: NVML unavailable (.*libnvidia-ml.so.1.*): no power samples$' "$e2e_tmp/none.err" ||
	fail "none: unexpected warning: $(grep NVML "$e2e_tmp/none.err")"
[ "$(power_events "$e2e_tmp/none.trace")" = 0 ] || fail "none: power events without NVML"
grep -qx 'kernels: 5' "$e2e_tmp/none.summary" || fail "none: the trace lost kernels"
grep -qx 'energy: no power samples (record with --power-ms N on a GPU whose driver has NVML)' \
	"$e2e_tmp/none.summary" || fail "none: summary does not say there are no samples"
[ "$(cat "$e2e_tmp/none.report/energy.csv")" = "kind,name,count,time_us,energy_mj,mean_power_w" ] ||
	fail "none: energy.csv is not the header alone"

# 2. --power-ms 0, 3. bad values
run off "LD_LIBRARY_PATH=$e2e_tmp/no-nvml${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" -- --power-ms 0
grep -q 'NVML' "$e2e_tmp/off.err" && fail "off: NVML warning with --power-ms 0"
[ "$(power_events "$e2e_tmp/off.trace")" = 0 ] || fail "off: power events with --power-ms 0"
for bad in -1 x 3600001; do
	"$DNNTRACE" record --simgpu --power-ms "$bad" -o "$e2e_tmp/bad" -- true 2>"$e2e_tmp/bad.err" &&
		fail "--power-ms $bad accepted"
	[ "$(wc -l <"$e2e_tmp/bad.err")" = 1 ] && grep -q -- '--power-ms' "$e2e_tmp/bad.err" ||
		fail "--power-ms $bad: want one line naming --power-ms, got: $(cat "$e2e_tmp/bad.err")"
done
exit 0
