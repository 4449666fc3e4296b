#!/usr/bin/env bash
# Reader test for NVTX ops, --range windows and tensor categories on a real
# CTF trace: records the emitter's nvtx mode (emit_scripted.c: two training
# steps, push/pop ranges on two threads and two domains, a start/end range
# ended by another thread, tags param:/grad:/optim:/act:, a WORKSPACE
# argument, the default domain as an empty string) and compares what
# dnntrace-analyze writes with values known by construction; then the
# --range errors that need a trace with ranges (exit 1, one line). Must
# never compare output against output of the analyzer itself.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

record "$work/trace" "'$emit' nvtx >/dev/null" || fail "recording failed"
"$analyze" "$work/trace" -o "$work/all" >/dev/null 2>"$work/stderr" ||
	fail "analyze exit $?: $(cat "$work/stderr")"

# op of each kernel: the innermost range of the launching thread at the
# call, or the process's start/end range; eval_k runs outside any range
# (an empty push/pop "idle" before it must not stick)
cut -d, -f1,7,8,12 "$work/all/kernels.csv" >"$work/ops"
expect "$work/ops" <<'X'
index,name,api,op
0,fwd_k,cudaLaunchKernel,aten::linear
1,prefetch_k,cudaLaunchKernel,prefetch
2,sgemm_k,cublasSgemm_v2,aten::linear_backward
3,sgd_k,cudaLaunchKernel,optimizer
4,fwd_k,cudaLaunchKernel,aten::linear
5,prefetch_k,cudaLaunchKernel,prefetch
6,sgemm_k,cublasSgemm_v2,aten::linear_backward
7,sgd_k,cudaLaunchKernel,optimizer
8,eval_k,cudaLaunchKernel,
X
grep '^Kernel ID' "$work/all/kernels.config" >"$work/names"
expect "$work/names" <<'X'
Kernel ID: 0, Name: aten::linear(fwd_k(t2, param:fc.weight, act:fc))
Kernel ID: 1, Name: prefetch(prefetch_k(t2))
Kernel ID: 2, Name: aten::linear_backward(cublasSgemm_v2(sgemm_k))
Kernel ID: 3, Name: optimizer(sgd_k(param:fc.weight, grad:fc.weight, optim:fc.weight.momentum))
Kernel ID: 4, Name: aten::linear(fwd_k(t2, param:fc.weight, act:fc))
Kernel ID: 5, Name: prefetch(prefetch_k(t2))
Kernel ID: 6, Name: aten::linear_backward(cublasSgemm_v2(sgemm_k))
Kernel ID: 7, Name: optimizer(sgd_k(param:fc.weight, grad:fc.weight, optim:fc.weight.momentum))
Kernel ID: 8, Name: eval_k(param:fc.weight)
X
# categories, whole trace (9 kernels, mid 4): t2 (untagged input) is
# global and read before and after the middle: parameter-like (inferred);
# t5 is a WORKSPACE argument
cut -d, -f1,2,10- "$work/all/tensors.csv" >"$work/categories"
expect "$work/categories" <<'X'
id,name,global,category,category_source,addr,stream
0,param:fc.weight,1,parameter,tag,0x10100000,0x0
1,optim:fc.weight.momentum,1,optimizer_state,tag,0x10200000,0x0
2,t2,1,parameter,inferred,0x10300000,0x0
3,act:fc,0,activation,tag,0x10400000,0x0
4,grad:fc.weight,0,gradient,tag,0x10500000,0x0
5,t5,1,workspace,role,0x10600000,0x0
6,act:fc,0,activation,tag,0x10700000,0x0
7,grad:fc.weight,0,gradient,tag,0x10800000,0x0
X

# --range step:2: kernels 4..7, the other thread's prefetch_k included;
# inside it (mid 2) t2 is read only before the middle: other (inferred)
"$analyze" "$work/trace" -o "$work/step2" --range step:2 >/dev/null 2>"$work/stderr" ||
	fail "--range step:2 exit $?: $(cat "$work/stderr")"
grep -qx 'kernels: 4 (window 4:7 of 9: range step:2)' "$work/step2/summary.txt" ||
	fail "step:2 window: $(grep kernels: "$work/step2/summary.txt")"
cut -d, -f1,8,9,10- "$work/step2/tensors.csv" >"$work/step2_tensors"
expect "$work/step2_tensors" <<'X'
id,first_use,last_use,global,category,category_source,addr,stream
0,0,3,1,parameter,tag,0x10100000,0x0
1,3,3,1,optimizer_state,tag,0x10200000,0x0
2,0,1,1,other,inferred,0x10300000,0x0
3,,,0,activation,tag,0x10400000,0x0
4,,,0,gradient,tag,0x10500000,0x0
5,2,2,1,workspace,role,0x10600000,0x0
6,0,2,0,activation,tag,0x10700000,0x0
7,2,3,0,gradient,tag,0x10800000,0x0
X
grep -q '^tensor3,' "$work/step2/tensors.config" && fail "step 1's activation in step 2's files"
# act:fc of step 2: written by fwd_k (0), read by sgemm (2): Birth 0, Death 3;
# its gradient: written by sgemm (2), read by sgd_k (3): Birth 2, Death 4
grep -A1 '^tensor6, ' "$work/step2/liveness_analysis.config" | grep -qx 'Liveness: Birth: 0, Death: 3.' ||
	fail "tensor 6 liveness in step 2"
grep -A1 '^tensor7, ' "$work/step2/liveness_analysis.config" | grep -qx 'Liveness: Birth: 2, Death: 4.' ||
	fail "tensor 7 liveness in step 2"
grep -c '^Kernel ID' "$work/step2/kernels.config" | grep -qx 4 || fail "step 2 kernels.config"

window() {   # window ARGS... -> the kernels: line of the summary
	rm -rf "$work/w"
	"$analyze" "$work/trace" -o "$work/w" "$@" >/dev/null 2>"$work/stderr" ||
		fail "$* exit $?: $(cat "$work/stderr")"
	grep -E '^(kernels|ops):' "$work/w/summary.txt"
}
[ "$(window --range optimizer:2)" = 'kernels: 1 (window 7:7 of 9: range optimizer:2)' ] ||
	fail "optimizer:2 (start/end range): $(window --range optimizer:2)"
[ "$(window --range prefetch)" = 'kernels: 1 (window 1:1 of 9: range prefetch:1)' ] ||
	fail "prefetch (first occurrence, other thread): $(window --range prefetch)"
[ "$(window --range aten::linear:2)" = 'kernels: 1 (window 4:4 of 9: range aten::linear:2)' ] ||
	fail "aten::linear:2: $(window --range aten::linear:2)"
[ "$(window --range step:1 --granularity op)" = 'ops: 4 (window 0:3 of 9: range step:1)' ] ||
	fail "op granularity: $(window --range step:1 --granularity op)"

expect_exit() {   # expect_exit CODE WHAT PATTERN ARGS...
	local code=$1 what=$2 pattern=$3; shift 3
	rm -rf "$work/e"
	"$analyze" "$work/trace" -o "$work/e" "$@" >"$work/stdout" 2>"$work/stderr"
	local rc=$?
	[ "$rc" = "$code" ] || fail "$what: exit $rc, expected $code ($(head -c 300 "$work/stderr"))"
	[ "$(wc -l <"$work/stderr")" = 1 ] ||
		fail "$what: stderr is not one line: $(head -c 600 "$work/stderr")"
	grep -q -- "$pattern" "$work/stderr" || fail "$what: stderr lacks '$pattern': $(cat "$work/stderr")"
	[ -e "$work/e" ] && fail "$what: wrote a report"
	return 0
}
expect_exit 1 "N too large" "step occurs only 2 times" --range step:3
expect_exit 1 "unknown range" "no NVTX range named nothing" --range nothing
expect_exit 1 "range without kernels" "no kernel was launched inside it" --range idle
echo "NVTX ops, --range windows and categories match the scripted trace"
