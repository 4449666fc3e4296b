#!/usr/bin/env bash
# End-to-end: a kernel node made with the generic cudaGraphAddNode, and
# conditional nodes (tests/nvcc/nv_graph_add_node.cu). Seen on an H200
# (CUDA 13.0, tests/gpu/probe_graph_callbacks.cu): the real libcudart
# makes it through the driver's cuGraphAddNode_v2, which the tracer did
# not record then, so the graph kernel counted in "graph kernels with
# unknown tensors" there (gpu-check, 2026-11-28). simgpu's runtime now
# makes it the same way, and the tracer records cudaGraphAddNode: one
# graph_node event labelled cudaGraphAddNode (the nested cuGraphAddNode_v2
# emits none); the graph kernel touches x, as the program says, and no
# swap.csv period of x spans it (x is used by kernels 0, 2 and 4).
# Conditional nodes: cudaErrorNotSupported on simgpu (printed, the same
# traced); the tracer forwards them with no event.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

name=nv_graph_add_node
dir="$e2e_tmp/$name"
program="$DNNTRACE_BUILD/nvcc/$name"
require_built "$program"
mkdir -p "$dir"
untraced "$program" >"$dir/untraced.out" 2>"$dir/untraced.err" ||
	fail "untraced exited $?: $(tail -n 2 "$dir/untraced.err")"
grep -q 'conditional handle: cudaErrorNotSupported, conditional node: cudaErrorNotSupported' \
	"$dir/untraced.out" || fail "conditional nodes: $(cat "$dir/untraced.out")"
record "$dir/trace" "$program" >"$dir/traced.out" 2>"$dir/record.err" ||
	fail "traced exited $?: $(tail -n 2 "$dir/record.err")"
cmp -s "$dir/untraced.out" "$dir/traced.out" || fail "stdout differs when traced"
nodes=$(babeltrace2 "$dir/trace" 2>/dev/null | grep 'dnntrace_api:graph_node:' |
	sed -n 's/.*api = ( "\([A-Za-z_0-9]*\)".*/\1/p' | tr '\n' ' ')
[ "$nodes" = "cudaGraphAddNode " ] || fail "graph_node events: '$nodes', expected one cudaGraphAddNode"
report="$dir/report"
analyze "$dir/trace" -o "$report" >"$dir/summary.out" 2>"$dir/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$dir/analyze.err")"
grep -q '^graph kernels with unknown tensors' "$dir/summary.out" &&
	fail "$(grep '^graph kernels' "$dir/summary.out")"
python3 - "$report" <<'PY' || fail "the graph kernel's tensors, or swap.csv across it, are wrong"
import csv, sys
report = sys.argv[1]
kernels = list(csv.DictReader(open(f"{report}/kernels.csv")))
names = [(k["api"], k["touched"].split()) for k in kernels]
graph = [i for i, k in enumerate(kernels) if k["api"] == "cudaGraphLaunch"]
assert len(kernels) == 5 and graph == [2], names
x = kernels[0]["touched"].split()
assert len(x) == 1 and kernels[2]["touched"].split() == x and kernels[4]["touched"].split() == x, names
for p in csv.DictReader(open(f"{report}/swap.csv")):
    start, end = int(p["period_start_kernel"]), int(p["period_end_kernel"])
    spans = start < 2 < end or (p["looped"] == "1" and (2 > start or 2 < end))
    assert not (spans and p["tensor"] == x[0]), p
PY
exit 0
