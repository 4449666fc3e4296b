#!/usr/bin/env bash
# Reader test on real CTF traces: records the scripted emitter
# (emit_scripted.c) with LTTng, runs dnntrace-analyze and compares every
# output file with values known by construction (the scenario of
# test_analysis_model.c: same tensors, roles, periods and memory). Covers
# two processes on two devices (one output directory each, events lost), a
# --kernels window, and the no-CUPTI fallback. Must never compare output
# against output of the analyzer itself.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

record "$work/trace" "'$emit' main >'$work/pid_main' && '$emit' other >'$work/pid_other'" ||
	fail "recording failed"
main_pid=$(awk '{print $2}' "$work/pid_main")
other_pid=$(awk '{print $2}' "$work/pid_other")
"$analyze" "$work/trace" -o "$work/out" --name unit >"$work/stdout" 2>"$work/stderr" ||
	fail "analyze exit $?: $(cat "$work/stderr")"
[ -s "$work/stderr" ] && fail "analyze wrote to stderr: $(cat "$work/stderr")"
main="$work/out/pid$main_pid-dev0"
other="$work/out/pid$other_pid-dev1"
[ -d "$main" ] && [ -d "$other" ] || fail "missing group directories: $(ls "$work/out")"

# The timeline, one file per process (timeline-pid<PID>.json): the
# trace-event rules hold in both, and the main process's four kernels,
# whose records came before their correlations, each got their launch
# arrow; the copy, whose correlation never came, none
[ ! -e "$work/out/timeline.json" ] || fail "timeline.json beside the per-process files"
for pid in "$main_pid" "$other_pid"; do
	python3 "$DNNTRACE_ROOT/tests/analysis/check_timeline.py" "$work/out/timeline-pid$pid.json" \
		>"$work/timeline.out" || fail "timeline-pid$pid.json: $(head -n 3 "$work/timeline.out")"
done
flows=$(python3 -c 'import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
print(sorted((e["pid"], e["tid"]) for e in ev if e["ph"] == "f"))' \
	"$work/out/timeline-pid$main_pid.json")
[ "$flows" = "[(0, 7), (0, 7), (0, 7), (0, 7)]" ] || fail "launch arrows into device 0 stream 7: $flows"

expect "$main/unit_NNMemConsumptionLog.py" <<'X'
active = [3000,2060,364,1114,]
active_breakdown = [(3000,0,0),(0,2010,50),(0,64,300),(0,1064,50),]
total = [3074,3124,3424,3124,]
global_weight = 3074
input_size = 1000
X
expect_no_newline "$main/unit_TensorPeriodLog.py" <<'X'
sd_size = [1000, 2000, 50, 64, 10, ]
sd_time = [0.5, 0.7, 0.3, 0.3, 0.8, ]
# 1 2 2 0 2 
X
expect "$main/tensors.config" <<'X'
tensor0, Name: weights, Is global?: 1: Size in byte: 1000, 
tensor1, Name: t1, Is global?: 1: Size in byte: 2000, 
tensor2, Name: t2, Is global?: 0: Size in byte: 300, 
tensor3, Name: t3, Is global?: 0: Size in byte: 50, 
tensor4, Name: t4, Is global?: 1: Size in byte: 64, 
tensor5, Name: t5, Is global?: 1: Size in byte: 10, 
X
rule=_____________________________________________________________________________
half="_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ "
tl() { echo "tensor$1, Name: $2, Is global?: $3: Size in byte: $4, "; }
{
	block() {   # id name global bytes liveness-line periods...
		local id=$1 name=$2 g=$3 bytes=$4 live=$5; shift 5
		echo "$rule"; tl "$id" "$name" "$g" "$bytes"; echo "$live"; echo "$half"
		tl "$id" "$name" "$g" "$bytes"; echo "Inactive Periods:"
		local p=0
		while [ $# -gt 0 ]; do
			echo "Period $p: $1"; echo "Estimated Time:$2us"; p=$((p + 1)); shift 2
		done
		echo "$rule"
	}
	block 0 weights 1 1000 "This tensor is Global!" 1--------3 0.5
	block 1 t1 1 2000 "This tensor is Global!" 2--------0 0.7
	block 2 t2 0 300 "Liveness: Birth: 2, Death: -1."
	block 3 t3 0 50 "Liveness: Birth: 1, Death: 4." 2--------3 0.3
	block 4 t4 1 64 "This tensor is Global!" 0--------2 0.3
	block 5 t5 1 10 "This tensor is Global!" 2--------1 0.8
} >"$work/liveness_expected"
expect "$main/liveness_analysis.config" <"$work/liveness_expected"
{
	k=________________________________________________________________
	k="${k}____"
	echo "Kernel ID: 0, Name: k_a(weights, t1)"; echo "Input Tensors:"; tl 0 weights 1 1000
	echo "Output Tensors:"; tl 0 weights 1 1000; tl 1 t1 1 2000; echo "$k"
	echo "Kernel ID: 1, Name: k_b(t1, t3, t5)"; echo "Input Tensors:"; tl 1 t1 1 2000; tl 5 t5 1 10
	echo "Output Tensors:"; tl 1 t1 1 2000; tl 3 t3 0 50; tl 5 t5 1 10; echo "$k"
	echo "Kernel ID: 2, Name: k_c(t2, t4)"; echo "Input Tensors:"; tl 4 t4 1 64
	echo "Output Tensors:"; tl 2 t2 0 300; tl 4 t4 1 64; echo "$k"
	echo "Kernel ID: 3, Name: k_d(weights, t3, t4)"; echo "Input Tensors:"
	tl 0 weights 1 1000; tl 3 t3 0 50; tl 4 t4 1 64
	echo "Output Tensors:"; tl 0 weights 1 1000; tl 3 t3 0 50; tl 4 t4 1 64; echo "$k"
} >"$work/kernels_expected"
expect "$main/kernels.config" <"$work/kernels_expected"
expect "$main/memory.csv" <<'X'
index,live_bytes,active_bytes
0,3074,3000
1,3124,2060
2,3424,364
3,3124,1114
X
expect "$main/periods.csv" <<'X'
tensor,period,start,end,estimated_us,looped
0,0,1,3,0.500,0
1,0,2,0,0.700,1
3,0,2,3,0.300,0
4,0,0,2,0.300,0
5,0,2,1,0.800,1
X
# kernels.csv: GPU starts 20 ms apart, durations as emitted; times relative
# to the first start.
awk -F, 'NR == 1 { print; next } NR == 2 { s = $4 }
	{ $4 -= s; $5 -= s; print }' OFS=, "$main/kernels.csv" >"$work/kernels_rel.csv"
expect "$work/kernels_rel.csv" <<'X'
index,device,stream,start_ns,end_ns,duration_ns,name,api,inputs,outputs,touched,op
0,0,7,0,100,100,k_a,cudaLaunchKernel,0,0 1,0 1,
1,0,7,20000000,20000200,200,k_b,cudaLaunchKernel,1 5,1 3 5,1 3 5,
2,0,7,40000000,40000300,300,k_c,cudaLaunchKernel,4,2 4,2 4,
3,0,7,60000000,60000400,400,k_d,cudaLaunchKernel,0 3 4,0 3 4,0 3 4,
X
# tensors.csv: event times must fall where the emitter put them relative
# to the GPU kernel starts (same clock domain): replace each time by the
# number of kernel starts before it.
starts=$(awk -F, 'NR > 1 { printf "%s ", $4 }' "$main/kernels.csv")
awk -F, -v starts="$starts" 'BEGIN { n = split(starts, s, " ") }
	function slot(t,   i, c) { if (t == "") return ""; c = 0
		for (i = 1; i <= n; i++) if (s[i] + 0 <= t + 0) c++; return "k" c }
	NR == 1 { print; next } { $6 = slot($6); $7 = slot($7); print }' OFS=, \
	"$main/tensors.csv" >"$work/tensors_slots.csv"
expect "$work/tensors_slots.csv" <<'X'
id,name,bytes,device,kind,alloc_ns,free_ns,first_use,last_use,global,category,category_source,addr,stream
0,weights,1000,0,device,k0,,0,3,1,parameter,inferred,0x10100000,0x0
1,t1,2000,0,device,k0,k4,0,1,1,other,inferred,0x10200000,0x0
2,t2,300,0,device,k2,k3,2,2,0,other,inferred,0x10300000,0x0
3,t3,50,0,device,k1,k4,1,3,0,activation,inferred,0x10400000,0x0
4,t4,64,0,device,k0,,2,3,1,other,inferred,0x10500000,0x0
5,t5,10,0,stream_ordered,k0,,1,1,1,other,inferred,0x10600000,0x0
X
# GPU time: busy, span and overlap are exact (the emitter's kernel times);
# how the idle time splits and the launch delays depend on when the
# emitter ran, so their numbers are masked
sed -E -e 's/waiting for the host [0-9.]+ us, waiting on other work [0-9.]+ us/waiting for the host H us, waiting on other work O us/' \
	-e 's/mean -?[0-9.]+ us, max -?[0-9.]+ us/mean M us, max X us/' \
	"$main/summary.txt" >"$work/summary_masked.txt"
expect "$work/summary_masked.txt" <<X
process $main_pid, device 0
kernels: 4
tensors: 6 (6 in the G10 files, 4 global)
tensors ended with the process: 3 (1074 bytes; no call freed them, they end at its last event)
failed allocations: 1
pinned host memory: 4096 bytes in 1 allocations
peak memory: 3424 bytes at kernel 2 (k_c)
gpu records: full (recorded before --gpu-records existed)
top idle tensors (byte-seconds):
  t1 (tensor 1, 2000 bytes): 0.0014
  weights (tensor 0, 1000 bytes): 0.0005
  t4 (tensor 4, 64 bytes): 1.92e-05
  t3 (tensor 3, 50 bytes): 1.5e-05
  t5 (tensor 5, 10 bytes): 8e-06
memory by category at the peak (bytes): Others 3424
untrackable: unknown (no device memory samples in the trace)
swap (link 64 GB/s each way): 5 of 5 inactive periods feasible; peak with every feasible swap: 3064 bytes at kernel 0 (traced: 3424)
GPU span: 60000.400 us (first kernel start to last kernel end)
GPU busy: 1.000 us (0.0%)
GPU idle: 59999.400 us (100.0%): waiting for the host H us, waiting on other work O us
stream overlap: 0.000 us (two or more kernels at once)
kernel launch delay: mean M us, max X us (4 launches; kernel start - launch call end)
energy: no power samples (record with --power-ms N on a GPU whose driver has NVML)
report by dnntrace-analyze $(sed -n 's/^#define DNNTRACE_VERSION "\(.*\)"$/\1/p' "$DNNTRACE_ROOT/include/dnntrace_version.h")
X
# swapped peak by hand: kernel times 100, 200, 300, 400 ns, so every copy
# (<= 31.25 ns each way) fits; kernel 0 loses t5 (looped 2--1), 1 t4,
# 2 weights, 3 t1 and t5: 3074-10, 3124-64, 3424-1000, 3124-2010.
# second process: device 1, a kernel name needing CSV quoting, 3 dropped
grep -qx '0,1,7,[0-9]*,[0-9]*,10,"needs, ""quoting""<float>",cudaLaunchKernel,,0,0,' \
	"$other/kernels.csv" || fail "quoted kernel row: $(cat "$other/kernels.csv")"
grep -qx 'events lost: 3' "$other/summary.txt" || fail "events lost not reported"
grep -qx 'tensors ended with the process: 1 (128 bytes; no call freed them, they end at its last event)' \
	"$other/summary.txt" || fail "the second process's tensor live at its exit: $(grep '^tensors' "$other/summary.txt")"
# The main process ran first: in its timeline, what it never freed (weights,
# t4, t5) ends with it, before the second process's first event, not at
# the end of the trace.
python3 - "$work/out/timeline-pid$main_pid.json" "$work/out/timeline-pid$other_pid.json" <<'PY' ||
import json, sys
main = json.load(open(sys.argv[1]))["traceEvents"]
other = json.load(open(sys.argv[2]))["traceEvents"]
ends = [e["ts"] for e in main if e.get("cat") == "tensor" and e["ph"] == "e"]
first_other = min(e["ts"] for e in other if "ts" in e and e.get("ph") != "M")
if len(ends) != 6 or max(ends) >= first_other:
    sys.exit(f"main's tensors end at {sorted(ends)}, the second process starts at {first_other}")
PY
	fail "the main process's tensors outlive it in its timeline"
grep -qx 'analysis incomplete: events were lost' "$other/summary.txt" ||
	fail "incomplete analysis not marked"
grep -q 'events lost' "$main/summary.txt" && fail "main process reports lost events"
grep -qx "== $other" "$work/stdout" || fail "stdout lacks the second group"
grep -qx 'events lost: 3' "$work/out/summary.txt" || fail "top summary.txt incomplete"
# the table across the two groups: index.csv and the head of summary.txt
grep -qx "$other_pid,1,1,[0-9]*,[0-9]*,0,3,0,pid$other_pid-dev1" "$work/out/index.csv" ||
	fail "index.csv lacks the second group with its 3 lost events: $(cat "$work/out/index.csv")"
[ "$(wc -l <"$work/out/index.csv")" = 3 ] || fail "index.csv: $(cat "$work/out/index.csv")"
head -n 1 "$work/out/summary.txt" | grep -qx 'processes: 2, process/device reports: 2' ||
	fail "summary.txt does not start with the table: $(head -n 2 "$work/out/summary.txt")"
grep -q '^total  *5  *7  *[0-9]*  *1  *3  *0$' "$work/out/summary.txt" ||
	fail "totals are not 5 kernels, 7 tensors, 1 failed, 3 lost: $(grep ^total "$work/out/summary.txt")"
grep -qx 'analysis incomplete: events were lost (see the reports below)' "$work/out/summary.txt" ||
	fail "the table does not mark the analysis incomplete"

# --kernels 1:2 (renumbered 0..1): see test_window in test_analysis_model.c
"$analyze" "$work/trace" -o "$work/win" --kernels 1:2 >/dev/null 2>"$work/stderr" ||
	fail "window analyze failed: $(cat "$work/stderr")"
expect_no_newline "$work/win/pid$main_pid-dev0/dnntrace_TensorPeriodLog.py" <<'X'
sd_size = [2000, 50, 64, 10, ]
sd_time = [0.3, 0.3, 0.2, 0.3, ]
# 1 1 0 1 
X
expect "$work/win/pid$main_pid-dev0/dnntrace_NNMemConsumptionLog.py" <<'X'
active = [2060,364,]
active_breakdown = [(2060,0,0),(0,64,300),]
total = [3124,3424,]
global_weight = 3124
input_size = 1000
X
grep -qx 'kernels: 2 (window 1:2 of 4)' "$work/win/pid$main_pid-dev0/summary.txt" ||
	fail "window not in summary"
# the other process has 1 kernel: the window does not fit, all are analyzed
grep -qx 'kernels: 1 (--kernels 1:2 out of range: all kernels analyzed)' \
	"$work/win/pid$other_pid-dev1/summary.txt" || fail "window misfit not reported"

# no CUPTI: launches stand in for kernels, in call order, duration 0;
# a single group writes straight into OUT_DIR
record "$work/nocupti" "'$emit' nocupti >/dev/null" || fail "recording nocupti failed"
"$analyze" "$work/nocupti" -o "$work/nc" >"$work/stdout" 2>"$work/stderr" ||
	fail "nocupti analyze failed: $(cat "$work/stderr")"
grep -q '^kernel times missing: launches stand in for kernels (CUPTI: CUPTI_ERROR_NOT_INITIALIZED)$' \
	"$work/nc/summary.txt" || fail "kernel times missing not reported"
awk -F, 'NR > 1 { print $1, $6, $7, $11 }' "$work/nc/kernels.csv" >"$work/nc_rows"
expect "$work/nc_rows" <<'X'
0 0 first 0
1 0 second 0
X
echo "reader outputs match the scripted trace"
