#!/usr/bin/env bash
# End-to-end: kernels inside CUDA graphs touch their tensors
# (tests/nvcc/nv_graph_updates.cu, nvcc-compiled, on simgpu): a graph
# captured from a cuBLAS GEMM and two <<<>>> launches, a graph built by
# hand, cudaGraphKernelNodeSetParams (the exec keeps its node),
# cudaGraphExecKernelNodeSetParams, cudaGraphExecUpdate, a clone, copy
# and set nodes and a child graph node. Same
# output and status traced and untraced; at kernel and op granularity the
# analysis equals the program's ground truth tensor by tensor (each graph
# kernel's tensors at each launch, the GEMM's roles and shapes included),
# no graph kernel is counted unknown, and swap.csv never offers a tensor
# as idle across a kernel that uses it (w is used only inside replays);
# memset and memcpy nodes write what the kernels after them read; a child
# graph node runs its copy of the child graph.
# compare.py's real-GPU mode accepts another name for the GEMM (a captured
# library call's kernel is named by the library: the truth's library_named
# column; an H200 ran cuBLAS's gemmSN_NN kernel there) and still catches a
# program kernel renamed.
# Before graph nodes were traced (format 3) every graph kernel here had no
# tensors: x and y were offered as idle across the replays that use them.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/nvcc_program.sh"

name=nv_graph_updates
dir="$e2e_tmp/$name"
program="$DNNTRACE_BUILD/nvcc/$name"
require_built "$program" "$SIMGPU_LIB/libcublas.so"
mkdir -p "$dir"
untraced "$program" "$dir/truth-untraced" >"$dir/untraced.out" 2>"$dir/untraced.err" ||
	fail "untraced exited $?: $(tail -n 2 "$dir/untraced.err")"
record "$dir/trace" "$program" "$dir/truth" >"$dir/traced.out" 2>"$dir/record.err" ||
	fail "traced exited $?: $(tail -n 2 "$dir/record.err")"
cmp -s "$dir/untraced.out" "$dir/traced.out" || fail "stdout differs when traced"
diff -r "$dir/truth-untraced" "$dir/truth" >/dev/null || fail "ground truth differs when traced"
check_no_discarded "$dir/trace"

for granularity in kernel op; do
	report="$dir/report-$granularity" truth="$dir/truth"
	[ "$granularity" = op ] && truth="$dir/truth/op"
	analyze "$dir/trace" -o "$report" --granularity "$granularity" >"$dir/summary.out" \
		2>"$dir/analyze.err" || fail "analyze ($granularity) exited $?: $(tail -n 1 "$dir/analyze.err")"
	python3 "$E2E_DIR/check_graph_launch.py" report "$truth" "$report" >"$dir/check.out" ||
		fail "$granularity granularity differs from ground truth: $(head -n 3 "$dir/check.out")"
	python3 "$E2E_DIR/check_swap_truth.py" "$truth" "$report" >"$dir/swap.out" ||
		fail "$granularity: $(head -n 2 "$dir/swap.out")"
	grep -q '^graph kernels with unknown tensors' "$dir/summary.out" &&
		fail "$granularity: $(grep '^graph kernels' "$dir/summary.out")"
done

# rename REPORT FROM TO: every kernels.csv row named FROM renamed TO;
# prints how many
rename() {
	awk -F, -v OFS=, -v from="$2" -v to="$3" 'NR > 1 && $7 == from { $7 = to; n++ } { print }
		END { print n + 0 > "/dev/stderr" }' "$1/kernels.csv" 2>"$1/renamed" >"$1/kernels.csv.new" &&
		mv "$1/kernels.csv.new" "$1/kernels.csv" && cat "$1/renamed"
}
gemm="$dir/real-gemm" scale="$dir/real-scale"
cp -r "$dir/report-kernel" "$gemm" && cp -r "$dir/report-kernel" "$scale"
[ "$(rename "$gemm" ampere_sgemm_128x64_nn sm90_other_gemm)" = 2 ] || fail "the GEMM is not two kernels"
compare truth --real-gpu "$dir/truth" "$gemm" >"$gemm.out" ||
	fail "real-GPU mode rejects a library-chosen name for the captured GEMM: $(head -n 2 "$gemm.out")"
compare truth "$dir/truth" "$gemm" >/dev/null && fail "exact mode accepts the GEMM renamed"
[ "$(rename "$scale" _Z5scalePfi other_kernel)" -gt 0 ] || fail "no scale kernel"
compare truth --real-gpu "$dir/truth" "$scale" >"$scale.out" && fail "real-GPU mode accepts a program kernel renamed"
grep -q "^kernels: kernel [0-9]*: name 'other_kernel'" "$scale.out" ||
	fail "real-GPU mode, program kernel renamed: $(head -n 2 "$scale.out")"
exit 0
