#!/usr/bin/env bash
# Reader test for the driver-API trace additions on a real CTF trace:
# records the emitter's driver mode (emit_scripted.c: cuMemCreate, a
# cuMemMap'ed tensor 0, cuLaunchKernel "drv_k" on it, a cudaGraphLaunch
# whose two kernels g_a, g_b link to its call_id; no graph node event says
# what they touch, so each counts as touching the one live tensor, 0, and
# the summary counts them) and checks the api column, the graph op, the
# tensor kind and the VMM summary line against values known by
# construction. Must never compare output against output
# of the analyzer itself.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

record "$work/trace" "'$emit' driver >/dev/null" || fail "recording failed"
"$analyze" "$work/trace" -o "$work/kernel" >/dev/null 2>"$work/stderr" ||
	fail "analyze exit $?: $(cat "$work/stderr")"
"$analyze" "$work/trace" -o "$work/op" --granularity op >/dev/null \
	2>"$work/stderr" || fail "analyze --granularity op exit $?: $(cat "$work/stderr")"

# index,duration,name,api,touched
cut -d, -f1,6,7,8,11 "$work/kernel/kernels.csv" >"$work/k"
expect "$work/k" <<'X'
index,duration_ns,name,api,touched
0,100,drv_k,cuLaunchKernel,0
1,200,g_a,cudaGraphLaunch,0
2,300,g_b,cudaGraphLaunch,0
X
cut -d, -f1,6,7,8,11 "$work/op/kernels.csv" >"$work/o"
expect "$work/o" <<'X'
index,duration_ns,name,api,touched
0,100,drv_k,cuLaunchKernel,0
1,500,g_a; g_b,cudaGraphLaunch,0
X
cut -d, -f1,3,5 "$work/kernel/tensors.csv" >"$work/t"
expect "$work/t" <<'X'
id,bytes,kind
0,2097152,vmm_mapped
X
grep -qx 'physical VMM memory (cuMemCreate): 2097152 bytes in 1 allocations' \
	"$work/kernel/summary.txt" || fail "VMM line: $(cat "$work/kernel/summary.txt")"
grep -q '^graph kernels with unknown tensors: 2 ' "$work/kernel/summary.txt" ||
	fail "unknown graph kernels: $(grep '^graph kernels' "$work/kernel/summary.txt")"
echo "reader driver test passed"
