#!/usr/bin/env bash
# End-to-end: PyTorch's cudaMallocAsync backend (the allocator `dnntrace
# record` selects by default): the torch_async_alloc workload sets the
# default pool's release threshold to UINT64_MAX, allocates every tensor
# with cudaMallocAsync, frees on the creation stream or, for gradients
# all-reduced on a side stream, on a unifying free stream after event
# waits, and the pool hands the same addresses out again step after step.
# Each allocation at a reused address must be a new tensor with its own
# exact lifetime: tracing changes neither output nor status, every tensor
# is one cudaMallocAsync and one cudaFreeAsync, frees use both kinds of
# stream, and the reports equal the ground truth exactly.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/torch_async_alloc"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"

record_like_untraced "$workload"
reused=$(sed -n 's/.* \([0-9]*\) allocations at a reused address$/\1/p' "$e2e_tmp/traced.out")
[ -n "$reused" ] && [ "$reused" -gt 0 ] || fail "the pool handed out no address twice: nothing tested"

check_api_paths cudaMallocAsync cudaFreeAsync cudaLaunchKernel stream_ordered \
	"tensors are not exactly one cudaMallocAsync and one cudaFreeAsync each"
# The trace itself shows the reuse: more tensors than addresses, and frees
# on two streams (the creation stream and the unifying free stream).
python3 - "$e2e_tmp/trace.txt" "$reused" <<'EOF' || fail "the trace does not show the reuse the workload made"
import os, sys
sys.path.insert(0, os.path.join(os.environ["DNNTRACE_ROOT"], "tests/e2e"))
from compare import ALLOCS, FREES, parse_trace_text
events = parse_trace_text(sys.argv[1])
allocs = [e for e in events if e["event"] in ALLOCS and e.get("tensor_id", -1) >= 0]
frees = [e for e in events if e["event"] in FREES and e.get("tensor_id", -1) >= 0]
reused = len(allocs) - len({e["ptr"] for e in allocs})
streams = {e["stream"] for e in frees}
print(f"{len(allocs)} tensors at {len({e['ptr'] for e in allocs})} addresses, frees on {len(streams)} streams")
sys.exit(0 if reused == int(sys.argv[2]) and len(streams) == 2 else 1)
EOF

analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >"$e2e_tmp/summary.out" 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
compare truth "$e2e_tmp/truth" "$e2e_tmp/report" || fail "analyzer reports differ from ground truth"
