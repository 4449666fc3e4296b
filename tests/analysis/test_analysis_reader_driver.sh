#!/usr/bin/env bash
# Reader test for the driver-API trace additions on a real CTF trace:
# records the emitter's driver mode (emit_scripted.c: cuMemCreate, a
# cuMemMap'ed tensor 0, cuLaunchKernel "drv_k" on it, a cudaGraphLaunch
# whose two kernels g_a, g_b link to its call_id) and checks the api
# column, the graph op, the tensor kind and the VMM summary line against
# values known by construction. Must never compare output against output
# of the analyzer itself.
set -u
. "$(dirname "$0")/lib_record.sh"
analyze="$DNNTRACE_BUILD/bin/dnntrace-analyze"
# ANALYSIS_EMITTER: another build of the emitter (test_analysis_reader_format1.sh)
emit="${ANALYSIS_EMITTER:-$DNNTRACE_BUILD/tests/analysis_emit_scripted}"
[ -x "$analyze" ] && [ -x "$emit" ] || fail "build first ($analyze, $emit)"
work=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-reader-driver.XXXXXX")
trap 'rm -rf "$work"' EXIT

record "$work/trace" "'$emit' driver >/dev/null" || fail "recording failed"
"$analyze" "$work/trace" -o "$work/kernel" >/dev/null 2>"$work/stderr" ||
	fail "analyze exit $?: $(cat "$work/stderr")"
"$analyze" "$work/trace" -o "$work/op" --granularity op >/dev/null \
	2>"$work/stderr" || fail "analyze --granularity op exit $?: $(cat "$work/stderr")"

expect() {   # expect FILE <<< expected content (byte for byte)
	cat >"$work/expected"
	cmp -s "$work/expected" "$1" || {
		diff "$work/expected" "$1" | head -20
		fail "$1 differs from the expected content"; }
}

# index,duration,name,api,touched
cut -d, -f1,6,7,8,11 "$work/kernel/kernels.csv" >"$work/k"
expect "$work/k" <<'X'
index,duration_ns,name,api,touched
0,100,drv_k,cuLaunchKernel,0
1,200,g_a,cudaGraphLaunch,
2,300,g_b,cudaGraphLaunch,
X
cut -d, -f1,6,7,8,11 "$work/op/kernels.csv" >"$work/o"
expect "$work/o" <<'X'
index,duration_ns,name,api,touched
0,100,drv_k,cuLaunchKernel,0
1,500,g_a; g_b,cudaGraphLaunch,
X
cut -d, -f1,3,5 "$work/kernel/tensors.csv" >"$work/t"
expect "$work/t" <<'X'
id,bytes,kind
0,2097152,vmm_mapped
X
grep -qx 'physical VMM memory (cuMemCreate): 2097152 bytes in 1 allocations' \
	"$work/kernel/summary.txt" || fail "VMM line: $(cat "$work/kernel/summary.txt")"
echo "reader driver test passed"
