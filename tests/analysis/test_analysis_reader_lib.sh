#!/usr/bin/env bash
# Reader test of library calls on a real CTF trace: records the scripted
# emitter's `lib` mode (dnntrace_lib:call and set_stream events with roles
# and shapes, their kernels linked by external correlation; the scenario
# of test_analysis_library.c, where every value is worked out by hand), runs
# dnntrace-analyze at kernel and at op granularity and compares the output
# files with values known by construction. Must never compare output
# against output of the analyzer itself.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

record "$work/trace" "'$emit' lib >'$work/pid'" || fail "recording failed"
pid=$(awk '{print $2}' "$work/pid")
"$analyze" "$work/trace" -o "$work/k" >"$work/stdout" 2>"$work/stderr" ||
	fail "analyze exit $?: $(cat "$work/stderr")"
[ -s "$work/stderr" ] && fail "analyze wrote to stderr: $(cat "$work/stderr")"
"$analyze" "$work/trace" -o "$work/op" --granularity op >/dev/null 2>"$work/stderr" ||
	fail "analyze --granularity op exit $?: $(cat "$work/stderr")"

relative_times() {   # start/end columns relative to the first kernel start
	awk -F, -v s="$2" 'NR == 1 { print; next } { $4 -= s; $5 -= s; print }' \
		OFS=, "$1"
}
first_start=$(awk -F, 'NR == 2 { print $4 }' "$work/k/kernels.csv")

# kernel granularity: the AddTensor call ran no kernel and has no index
relative_times "$work/k/kernels.csv" "$first_start" >"$work/k_rel.csv"
expect "$work/k_rel.csv" <<'X'
index,device,stream,start_ns,end_ns,duration_ns,name,api,inputs,outputs,touched,op
0,0,7,0,100,100,conv_a,cudnnConvolutionForward,0 1,2 3,0 1 2 3,
1,0,7,10000000,10000300,300,conv_b,cudnnConvolutionForward,0 1,2 3,0 1 2 3,
2,0,7,20000000,20000050,50,relu_kernel,cudaLaunchKernel,2,2 4,2 4,
3,0,7,30000000,30000200,200,sgemm_128x64_nn,cublasSgemm_v2,4 5,2,4 5 2,
4,0,7,50000000,50000010,10,backend_k,cudnnBackendExecute,3 4,3 6 4,3 6 4,
X
tl() { echo "tensor$1, Name: t$1, Is global?: $2: Size in byte: $3, ${4:-}"; }
rule=____________________________________________________________________
{
	conv() {
		echo "Kernel ID: $1, Name: cudnnConvolutionForward($2)"
		echo "Input Tensors:"
		tl 0 1 4096 "Dimensions: f32[2, 3, 8, 8]"
		tl 1 1 1024 "Dimensions: f32[4, 3, 3, 3]"
		echo "Output Tensors:"
		tl 2 0 8192 "Dimensions: f32[2, 4, 6, 6]"
		tl 3 1 512; echo "$rule"
	}
	conv 0 conv_a; conv 1 conv_b
	echo "Kernel ID: 2, Name: relu_kernel(t2, t4)"
	echo "Input Tensors:"; tl 2 0 8192
	echo "Output Tensors:"; tl 2 0 8192; tl 4 0 2048; echo "$rule"
	echo "Kernel ID: 3, Name: cublasSgemm_v2(sgemm_128x64_nn)"
	echo "Input Tensors:"
	tl 4 0 2048 "Dimensions: f32[16, 8]"; tl 5 1 4096 "Dimensions: f32[8, 4]"
	echo "Output Tensors:"; tl 2 0 8192 "Dimensions: f32[16, 4]"; echo "$rule"
	echo "Kernel ID: 4, Name: cudnnBackendExecute(backend_k)"
	echo "Input Tensors:"; tl 3 1 512; tl 4 0 2048 "Dimensions: f32[16, 8]"
	echo "Output Tensors:"; tl 3 1 512; tl 6 0 256 "Dimensions: f32[64]"
	tl 4 0 2048 "Dimensions: f32[16, 8]"; echo "$rule"
} >"$work/kernels_expected"
expect "$work/k/kernels.config" <"$work/kernels_expected"
grep -A1 '^tensor' "$work/k/liveness_analysis.config" | grep '^Liveness' >"$work/k_live"
expect "$work/k_live" <<'X'
Liveness: Birth: 0, Death: 3.
Liveness: Birth: 2, Death: 5.
Liveness: Birth: 4, Death: -1.
X
expect_no_newline "$work/k/dnntrace_TensorPeriodLog.py" <<'X'
sd_size = [4096, 1024, 512, 4096, ]
sd_time = [0.26, 0.26, 0.25, 0.46, ]
# 2 2 2 4 
X
expect "$work/k/memory.csv" <<'X'
index,live_bytes,active_bytes
0,17920,13824
1,19968,13824
2,19968,10240
3,19968,14336
4,12032,2816
X
# tensor 7 (freed before, same addresses as tensor 5) is not in the files
grep -q '^tensor7,' "$work/k/tensors.config" && fail "dead tensor 7 in tensors.config"
grep -qx '7,t7,8192,0,device,[0-9]*,[0-9]*,,,0,other,inferred,0x50000,0x0' "$work/k/tensors.csv" ||
	fail "tensor 7 row: $(grep '^7,' "$work/k/tensors.csv")"
grep -qx 'kernels: 5' "$work/k/summary.txt" || fail "kernel count in summary"

# op granularity: conv_a + conv_b merged; AddTensor (no kernel) at its
# host call time, after the sgemm op; the failed call is no op
awk -F, 'NR > 1 && $1 == 3 { print ($4 > s + 30000200 && $4 < s + 50000000) }' \
	s="$first_start" "$work/op/kernels.csv" >"$work/o3_between"
expect "$work/o3_between" <<<1
awk -F, 'NR == 1 { print; next } $1 == 3 { $4 = "T"; $5 = "T"; print; next }
	{ $4 -= s; $5 -= s; print }' OFS=, s="$first_start" \
	"$work/op/kernels.csv" >"$work/op_rel.csv"
expect "$work/op_rel.csv" <<'X'
index,device,stream,start_ns,end_ns,duration_ns,name,api,inputs,outputs,touched,op
0,0,7,0,10000300,400,conv_a; conv_b,cudnnConvolutionForward,0 1,2 3,0 1 2 3,
1,0,7,20000000,20000050,50,relu_kernel,cudaLaunchKernel,2,2 4,2 4,
2,0,7,30000000,30000200,200,sgemm_128x64_nn,cublasSgemm_v2,4 5,2,4 5 2,
3,0,0,T,T,0,,cudnnAddTensor,0 2,2,0 2,
4,0,7,50000000,50000010,10,backend_k,cudnnBackendExecute,3 4,3 6 4,3 6 4,
X
grep -qx 'Kernel ID: 3, Name: cudnnAddTensor()' "$work/op/kernels.config" ||
	fail "op 3 name in kernels.config"
grep -qx 'Kernel ID: 0, Name: cudnnConvolutionForward(conv_a; conv_b)' \
	"$work/op/kernels.config" || fail "op 0 name in kernels.config"
expect_no_newline "$work/op/dnntrace_TensorPeriodLog.py" <<'X'
sd_size = [4096, 4096, 1024, 512, 2048, 4096, ]
sd_time = [0.25, 0.01, 0.26, 0.25, 0, 0.46, ]
# 1 4 1 1 3 3 
X
grep -A1 '^tensor' "$work/op/liveness_analysis.config" | grep '^Liveness' >"$work/op_live"
expect "$work/op_live" <<'X'
Liveness: Birth: 0, Death: 4.
Liveness: Birth: 1, Death: 5.
Liveness: Birth: 4, Death: -1.
X
expect "$work/op/memory.csv" <<'X'
index,live_bytes,active_bytes
0,17920,13824
1,19968,10240
2,19968,14336
3,19968,12288
4,12032,2816
X
grep -qx 'ops: 5' "$work/op/summary.txt" || fail "op count in summary"
grep -qx 'GPU kernels in these ops: 5' "$work/op/summary.txt" ||
	fail "GPU kernel count in summary"
grep -qx "process $pid, device 0" "$work/op/summary.txt" || fail "pid in summary"
echo "library calls read, linked and analyzed as constructed (kernel and op granularity)"
