#!/usr/bin/env bash
# End-to-end: replay G10's ResNet-50 iteration (one kernel per op) and check
# the analyzer's liveness_analysis.config against G10's published one: every
# Birth, Death and Period of every tensor (matched by name), and every
# Estimated Time against the sums of the durations g10_replay chose.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/g10_replay"
reference="${DNNTRACE_G10_REFERENCE:-$DNNTRACE_ROOT/../shared/g10/resnet50-pytorch64}"
[ -f "$reference/kernels.config" ] || skip "no G10 reference at $reference"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"
# ResNet-50 at batch 64 needs several GiB at its peak; the simulated GPU only
# accounts for it.
export SIMGPU_MEM_BYTES=$((80 << 30))

record "$e2e_tmp/trace" "$workload" "$reference/kernels.config" "$e2e_tmp/truth" \
	>"$e2e_tmp/traced.out" 2>"$e2e_tmp/record.err"
status=$?
[ "$status" = 0 ] || fail "record exited $status: $(tail -n 2 "$e2e_tmp/record.err")"
check_no_discarded "$e2e_tmp/trace"
analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" --name resnet50 >/dev/null 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
compare truth "$e2e_tmp/truth" "$e2e_tmp/report" resnet50 ||
	fail "analyzer reports differ from g10_replay's ground truth"
compare g10 "$reference" "$e2e_tmp/truth" "$e2e_tmp/report" ||
	fail "analyzer liveness differs from G10's"
