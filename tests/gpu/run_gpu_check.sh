#!/usr/bin/env bash
# run_gpu_check.sh [BUILD_DIR]: checks dnntrace on this machine's real NVIDIA
# GPU (tests/gpu/README.md; `make gpu-check`). Builds the tests/nvcc programs
# for the local GPU, runs each untraced and under `dnntrace record` (same
# status, output and ground truth), analyzes the trace and compares it with
# the program's own ground truth (compare.py truth --real-gpu); then, where
# python3 has torch with CUDA, trains train_small.py untraced and traced
# (--torch-names, allocators async and no-caching: identical losses) and
# checks the analysis (check_torch_report.py). Prints one table at the end;
# exits 0 when every step passed (skipped ones aside), 1 when one failed,
# 77 (one line) when the machine cannot run it (no GPU, LTTng or nvcc),
# 2 when the build is missing. Never part of `make test`: CI has no GPU.
# Must never change anything outside its scratch directory, nor kill a
# process it did not start (record stops the daemon it started itself).
#
# Environment:
#   DNNTRACE_GPU_CHECK_SIMGPU=1   run on simgpu (BUILD_DIR/simgpu/lib), no GPU
#                                 needed: to test this script itself
#   DNNTRACE_GPU_CHECK_WORK=DIR   scratch directory (absent or empty; kept);
#                                 default a new /tmp/dnntrace-gpu-check.XXXXXX
#   DNNTRACE_GPU_CHECK_PYTHON     the python with torch (default python3)
#   DNNTRACE_GPU_CHECK_ARCH       nvcc -arch (default native; sm_90 on simgpu)
#   DNNTRACE_GPU_CHECK_PROGRAMS=DIR  run the tests/nvcc programs in DIR (e.g.
#                                 BUILD_DIR/nvcc, made by `make` for sm_90)
#                                 instead of compiling them; nvcc not needed
#   DNNTRACE_GPU_CHECK_DEADLINE   seconds after which no further step starts
#                                 (those steps are skipped) and no step runs
#                                 more than 90 s past (default none)
#   CUDA_HOME                     the toolkit (default: nvcc's, else
#                                 /usr/local/cuda)
set -u

start_s=$(date +%s)
root=$(cd "$(dirname "$0")/../.." && pwd -P)
refuse() { echo "gpu-check: $*" >&2; exit 77; }
die() { echo "gpu-check: $*" >&2; exit 2; }

[ $# -le 1 ] || die "usage: run_gpu_check.sh [BUILD_DIR]"
build=${1:-${DNNTRACE_BUILD:-$root/build}}
case "$build" in /*) ;; *) build=$PWD/$build ;; esac
sim=${DNNTRACE_GPU_CHECK_SIMGPU:-0}
py=${DNNTRACE_GPU_CHECK_PYTHON:-python3}
deadline=${DNNTRACE_GPU_CHECK_DEADLINE:-0}
dnntrace=$root/scripts/dnntrace
export DNNTRACE_BUILD=$build DNNTRACE_PLOTS=0

# ---- can this machine run it?
command -v python3 >/dev/null || refuse "python3 not found (compare.py needs it)"
for f in lib/libdnntrace.so bin/dnntrace-analyze; do
	[ -f "$build/$f" ] || die "$build/$f not found: build dnntrace first (make)"
done
prebuilt=${DNNTRACE_GPU_CHECK_PROGRAMS:-}
nvcc=${CUDA_HOME:+$CUDA_HOME/bin/nvcc}
[ -n "$nvcc" ] && [ -x "$nvcc" ] || nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -n "$prebuilt" ]; then
	[ -d "$prebuilt" ] || die "DNNTRACE_GPU_CHECK_PROGRAMS: $prebuilt is not a directory"
	prebuilt=$(cd "$prebuilt" && pwd -P)
else
	[ -x "$nvcc" ] || refuse "nvcc not found (CUDA_HOME=${CUDA_HOME:-unset}, PATH): install the CUDA toolkit"
fi
cuda_home=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$nvcc")")")}
cuda_lib=$cuda_home/lib64
[ -d "$cuda_lib" ] || cuda_lib=$cuda_home/targets/x86_64-linux/lib
if [ "$sim" = 1 ]; then
	[ -f "$build/simgpu/lib/libcudart.so.13" ] || die "$build/simgpu/lib not built (make)"
	device="simgpu (DNNTRACE_GPU_CHECK_SIMGPU=1: no GPU used)"
	arch=${DNNTRACE_GPU_CHECK_ARCH:-sm_90}
	export SIMGPU_TIME_SCALE=1
else
	command -v nvidia-smi >/dev/null || refuse "no NVIDIA GPU: nvidia-smi not found"
	device=$(timeout 30 nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null |
		awk -F', ' 'NF >= 2 { print $1 ", driver " $2; exit }')
	[ -n "$device" ] || refuse "no NVIDIA GPU: nvidia-smi lists none"
	arch=${DNNTRACE_GPU_CHECK_ARCH:-native}
fi
command -v lttng >/dev/null && command -v lttng-sessiond >/dev/null ||
	refuse "LTTng not found (lttng, lttng-sessiond: install lttng-tools and liblttng-ust)"
missing=$(ldd "$build/lib/libdnntrace.so" 2>/dev/null | awk '/not found/ { print $1 }' | tr '\n' ' ')
[ -z "$missing" ] || refuse "libdnntrace.so cannot load: ${missing}not found (LTTng-UST)"
missing=$(ldd "$build/bin/dnntrace-analyze" 2>/dev/null | awk '/not found/ { print $1 }' | tr '\n' ' ')
[ -z "$missing" ] || refuse "dnntrace-analyze cannot load: ${missing}not found (libbabeltrace2)"

work=${DNNTRACE_GPU_CHECK_WORK:-$(mktemp -d /tmp/dnntrace-gpu-check.XXXXXX)}
mkdir -p "$work" && [ -z "$(ls -A "$work")" ] || die "$work is not an empty directory"
work=$(cd "$work" && pwd -P)
mkdir -p "$work"/{nvcc,runs,traces,truth,reports}
if [ -n "$prebuilt" ]; then
	programs_from="the programs in $prebuilt"
else
	programs_from="nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') -arch=$arch"
fi
echo "gpu-check: $device; $programs_from; dnntrace from $build; files in $work"

# ---- the results table
rows=() passed=0 failed=0 skipped=0
# row STEP UNTRACED TRACED OUTPUT TRUTH ANALYSIS SECONDS RESULT
row() {
	rows+=("$(printf '%-18s %-8s %-6s %-6s %-5s %-46s %7s  %s' "$1" "$2" "$3" "$4" "$5" "${6:0:46}" "$7" "$8")")
	case "$8" in PASS) passed=$((passed + 1)) ;; SKIP) skipped=$((skipped + 1)) ;; *) failed=$((failed + 1)) ;; esac
	echo "== $1: $8 (untraced $2, traced $3, output $4, truth $5; $6)"
}
time_left() { [ "$deadline" = 0 ] || [ $(($(date +%s) - start_s)) -lt "$deadline" ]; }
# limit SECONDS: a step's time limit, with a deadline cut to end 90 s past it
# (at least 20 s).
limit() {
	local seconds=$1 left
	if [ "$deadline" != 0 ]; then
		left=$((deadline + 90 - ($(date +%s) - start_s)))
		[ "$left" -lt "$seconds" ] && seconds=$left
		[ "$seconds" -lt 20 ] && seconds=20
	fi
	echo "$seconds"
}
elapsed() { echo $(($(date +%s) - $1)); }
# show FILE: its first lines, indented, after a failure
show() { [ -s "$1" ] && head -n "${2:-5}" "$1" | cut -c1-200 | sed 's/^/    /'; }

# analysis_problem REPORT_DIR: prints what in the summary shows a broken
# recording on any GPU (no CUPTI kernel times, lost events), else nothing.
analysis_problem() {
	grep -m1 -E '^(kernel times missing|events lost|analysis incomplete)' "$1/summary.txt" 2>/dev/null
}

# analyze NAME [ANALYZE OPTIONS]: reports/NAME from traces/NAME
analyze() {
	local name=$1
	shift
	timeout -k 10 "$(limit 120)" "$dnntrace" analyze "$work/traces/${name%.ops}" -o "$work/reports/$name" "$@" \
		>"$work/reports/$name.summary" 2>"$work/reports/$name.err"
}

# ---- build the tests/nvcc programs for this GPU
programs=(nv_vadd nv_kernels nv_multi nv_graph nv_cublas nv_graph_updates nv_graph_memory nv_graph_add_node
	nv_graph_children nv_graph_generic nv_graph_generic_memory)
build_programs() {
	local cc=${CC:-cc} p sources libs build_s
	build_s=$(date +%s)
	command -v "$cc" >/dev/null || cc=gcc
	if ! "$cc" -std=c11 -O2 -D_GNU_SOURCE -I"$root" -c "$root/tests/workloads/truth.c" \
		-o "$work/nvcc/truth.o" 2>"$work/nvcc/truth.log"; then
		echo "gpu-check: tests/workloads/truth.c does not compile ($cc):"; show "$work/nvcc/truth.log"
		return
	fi
	local -A pid=()
	for p in "${programs[@]}"; do
		sources=("$root/tests/nvcc/$p.cu") libs=()
		[ "$p" = nv_multi ] && sources=("$root/tests/nvcc/nv_multi_main.cu" "$root/tests/nvcc/nv_multi_lib.cu")
		[[ "$p" = nv_cublas || "$p" = nv_graph_updates ]] && libs=(-L"$cuda_lib" -lcublas)
		"$nvcc" -arch="$arch" -cudart shared -I"$root" "${sources[@]}" "$work/nvcc/truth.o" \
			-o "$work/nvcc/$p" "${libs[@]}" -ldl >"$work/nvcc/$p.log" 2>&1 &
		pid[$p]=$!
	done
	for p in "${programs[@]}"; do
		wait "${pid[$p]}" || { echo "gpu-check: $p does not build (nvcc -arch=$arch):"; show "$work/nvcc/$p.log"; }
	done
	echo "gpu-check: built the tests/nvcc programs in $(elapsed "$build_s") s"
}
if [ -n "$prebuilt" ]; then
	for p in "${programs[@]}"; do
		[ -x "$prebuilt/$p" ] && ln -s "$prebuilt/$p" "$work/nvcc/$p"
	done
else
	build_programs
fi

# Where the programs find libcudart and libcublas: simgpu's, or the
# toolkit's when nothing on the library path has them.
nv_ld=${LD_LIBRARY_PATH:-}
record_opts=()
if [ "$sim" = 1 ]; then
	nv_ld=$build/simgpu/lib${nv_ld:+:$nv_ld}
	record_opts=(--simgpu)
elif [ -x "$work/nvcc/nv_cublas" ] && ldd "$work/nvcc/nv_cublas" | grep -q 'not found'; then
	nv_ld=$cuda_lib${nv_ld:+:$nv_ld}
fi
[ -x "$work/nvcc/nv_cublas" ] && echo "gpu-check: the programs run with" \
	"$(LD_LIBRARY_PATH=$nv_ld ldd "$work/nvcc/nv_cublas" | awk '/libcudart|libcublas\./ { print $3 }' | tr '\n' ' ')"

# ---- each program untraced and traced, its analysis against its truth
# truth_text DIR: the truth's files, each 0x address renamed by its first
# appearance (A1, A2, ...). Where cudaMalloc puts a buffer is the driver's
# choice and differs between two runs of a program on a real GPU (seen on an
# H200: x at 0x7f17c1e00000 untraced, 0x7fdab3e00000 traced), so the two
# truths are the same run when they match with addresses renamed.
truth_text() {
	(cd "$1" && find . -type f | LC_ALL=C sort | while read -r f; do echo "== $f"; cat "$f"; done) |
		awk '{
			line = ""
			while (match($0, /0x[0-9a-fA-F]+/)) {
				a = substr($0, RSTART, RLENGTH)
				if (!(a in name)) name[a] = "A" (++n)
				line = line substr($0, 1, RSTART - 1) name[a]
				$0 = substr($0, RSTART + RLENGTH)
			}
			print line $0
		}'
}
check_program() {
	local p=$1 t0 rc_u rc_t out=- truth=- analysis result=FAIL args_u=() args_t=()
	t0=$(date +%s)
	if ! time_left; then row "$p" - - - - "not started: deadline" 0 SKIP; return; fi
	if [ ! -x "$work/nvcc/$p" ]; then
		row "$p" - - - - "no program: $([ -n "$prebuilt" ] && echo "none in $prebuilt" || echo "nvcc failed (nvcc/$p.log)")" 0 FAIL
		return
	fi
	if [ "$p" != nv_vadd ] && [ "$p" != nv_graph_add_node ]; then
		args_u=("$work/truth/$p.untraced") args_t=("$work/truth/$p.traced")
	fi
	env LD_LIBRARY_PATH="$nv_ld" timeout -k 10 "$(limit 60)" "$work/nvcc/$p" "${args_u[@]}" \
		>"$work/runs/$p.untraced.out" 2>"$work/runs/$p.untraced.err" </dev/null
	rc_u=$?
	env LD_LIBRARY_PATH="$nv_ld" timeout -k 30 "$(limit 180)" "$dnntrace" record "${record_opts[@]}" \
		-o "$work/traces/$p" -- "$work/nvcc/$p" "${args_t[@]}" \
		>"$work/runs/$p.out" 2>"$work/runs/$p.err" </dev/null
	rc_t=$?
	cmp -s "$work/runs/$p.untraced.out" "$work/runs/$p.out" && out=same || out=DIFF
	[ -s "$work/runs/$p.out" ] || out=EMPTY
	if [ ${#args_t[@]} != 0 ]; then
		cmp -s <(truth_text "$work/truth/$p.untraced") <(truth_text "$work/truth/$p.traced") &&
			truth=same || truth=DIFF
	fi
	if [ "$rc_t" != 0 ] || [ ! -d "$work/traces/$p" ]; then
		analysis="not analyzed: the traced run exited $rc_t"
	elif ! analyze "$p"; then
		analysis="analyze failed: $(tail -n 1 "$work/reports/$p.err" | cut -c1-60)"
	elif problem=$(analysis_problem "$work/reports/$p"); then
		analysis=$problem
	elif [ "$p" = nv_vadd ]; then
		# nv_vadd writes no truth: its one kernel and three tensors
		local summary="$work/reports/$p/summary.txt" kernel
		kernel=$(sed -n 2p "$work/reports/$p/kernels.csv" | cut -d, -f7,8,11)
		if grep -q '^kernels: 1$' "$summary" && grep -q '^tensors: 3 ' "$summary" &&
			[ "$kernel" = "_Z4vaddPKfS0_Pfi,__cudaLaunchKernel,0 1 2" ]; then
			analysis="1 kernel _Z4vaddPKfS0_Pfi, tensors 0 1 2"
		else
			analysis="not 1 kernel on 3 tensors: $kernel"
		fi
		[ "$rc_u$rc_t$out" = 00same ] && [[ "$analysis" == 1\ kernel* ]] && result=PASS
	elif [ "$p" = nv_graph_add_node ]; then
		# no truth file: the same output traced and untraced (on a real GPU
		# conditional nodes may be supported, on simgpu they are not: the
		# output says which), and every graph kernel's tensors known
		local unknown
		unknown=$(grep -m1 '^graph kernels with unknown tensors' "$work/reports/$p.summary")
		analysis="${unknown:-$(grep -m1 '^kernels:' "$work/reports/$p/summary.txt"), graph tensors known}"
		[ "$rc_u$rc_t$out" = 00same ] && [ -z "$unknown" ] && result=PASS
	elif [ "$p" = nv_graph_memory ] || [ "$p" = nv_graph_generic_memory ]; then
		# memory nodes: each launch's allocation a tensor of its own, touched
		# by the launch's kernels, as the program's truth says
		if python3 "$root/tests/e2e/check_graph_memory.py" "$work/truth/$p.traced" "$work/reports/$p" \
			>"$work/reports/$p.compare" 2>&1; then
			analysis="= truth (check_graph_memory.py)"
			[ "$rc_u$rc_t$out$truth" = 00samesame ] && result=PASS
		else
			analysis="truth differs: $(head -n 1 "$work/reports/$p.compare" | cut -c1-40)"
		fi
	elif python3 "$root/tests/e2e/compare.py" truth --real-gpu "$work/truth/$p.traced" \
		"$work/reports/$p" >"$work/reports/$p.compare" 2>&1; then
		analysis="= truth (real-GPU mode)$(sed -n 's/^allowed: \([0-9]*\) library-internal tensors.*/, \1 library tensors allowed/p' \
			"$work/reports/$p.compare")"
		[ "$rc_u$rc_t$out$truth" = 00samesame ] && result=PASS
	else
		analysis="truth differs: $(tail -n 1 "$work/reports/$p.compare" | cut -c1-40)"
	fi
	row "$p" "$rc_u" "$rc_t" "$out" "$truth" "$analysis" "$(elapsed "$t0")" "$result"
	if [ "$result" = FAIL ]; then
		[ "$rc_u" = 0 ] || show "$work/runs/$p.untraced.err"
		[ "$rc_t" = 0 ] || show "$work/runs/$p.err"
		[ -s "$work/reports/$p.compare" ] && show "$work/reports/$p.compare" 8
	fi
}
for p in "${programs[@]}"; do check_program "$p"; done

# ---- PyTorch: losses bit for bit, and a sane, linked analysis
train=$root/tests/gpu/train_small.py
check=$root/tests/gpu/check_torch_report.py
torch_info=$(timeout -k 10 120 "$py" -c '
import torch
print(torch.__version__, torch.cuda.is_available())' 2>/dev/null | tail -n 1)
model_lines() { grep -a -E '^(step|model) ' "$1"; }
if [ -z "$torch_info" ]; then
	row torch - - - - "skipped: $py cannot import torch" 0 SKIP
elif [ "${torch_info##* }" != True ]; then
	row torch - - - - "skipped: torch ${torch_info% *}: no CUDA device" 0 SKIP
elif ! time_left; then
	row torch - - - - "not started: deadline" 0 SKIP
else
	t0=$(date +%s)
	timeout -k 10 "$(limit 300)" "$py" "$train" >"$work/runs/torch_untraced.out" 2>"$work/runs/torch_untraced.err" </dev/null
	rc_base=$?
	model_lines "$work/runs/torch_untraced.out" >"$work/runs/torch_untraced.lines"
	result=FAIL
	[ "$rc_base" = 0 ] && grep -q '^step final' "$work/runs/torch_untraced.lines" && result=PASS
	row torch_untraced "$rc_base" - - - "torch ${torch_info% *}: $(grep -c '^step [0-9]' "$work/runs/torch_untraced.lines") steps" \
		"$(elapsed "$t0")" "$result"
	[ "$result" = PASS ] || show "$work/runs/torch_untraced.err"
	for mode in async no-caching; do
		name=torch_${mode//-/_}
		if [ "$result" != PASS ] || ! time_left; then
			row "$name" - - - - "not started: $([ "$result" = PASS ] && echo deadline || echo 'untraced run failed')" 0 SKIP
			continue
		fi
		t0=$(date +%s)
		timeout -k 30 "$(limit 300)" "$dnntrace" record --torch-names --allocator="$mode" -o "$work/traces/$name" \
			-- "$py" "$train" >"$work/runs/$name.out" 2>"$work/runs/$name.err" </dev/null
		rc_t=$?
		model_lines "$work/runs/$name.out" >"$work/runs/$name.lines"
		cmp -s "$work/runs/torch_untraced.lines" "$work/runs/$name.lines" && out=same || out=DIFF
		res=FAIL
		if [ "$rc_t" != 0 ] || [ ! -d "$work/traces/$name" ]; then
			analysis="not analyzed: the traced run exited $rc_t"
		elif ! analyze "$name" || ! analyze "$name.ops" --granularity op; then
			analysis="analyze failed: $(cat "$work/reports/$name.err" "$work/reports/$name.ops.err" | tail -n 1 | cut -c1-60)"
		elif python3 "$check" run "$work/runs/torch_untraced.out" "$work/reports/$name" \
			"$work/reports/$name.ops" "$mode" >"$work/reports/$name.check" 2>&1; then
			analysis=$(sed -n 's/^ok: \([0-9]*\) kernels (\([0-9]*\) of library calls.*/\1 kernels linked (\2 library), names ok/p' \
				"$work/reports/$name.check")
			[ "$rc_t$out" = 0same ] && res=PASS
		else
			analysis="$(tail -n 1 "$work/reports/$name.check" | cut -c1-46)"
		fi
		row "$name" "$rc_base" "$rc_t" "$out" - "$analysis" "$(elapsed "$t0")" "$res"
		if [ "$res" = FAIL ]; then
			[ "$out" = same ] || diff "$work/runs/torch_untraced.lines" "$work/runs/$name.lines" | head -n 6 | sed 's/^/    /'
			[ "$rc_t" = 0 ] || show "$work/runs/$name.err"
			show "$work/reports/$name.check" 8
		fi
	done
	if [ -f "$work/reports/torch_async/kernels.csv" ] && [ -f "$work/reports/torch_no_caching/kernels.csv" ]; then
		if python3 "$check" same-kernels "$work/reports/torch_async" "$work/reports/torch_no_caching" \
			>"$work/reports/torch_same_kernels.check" 2>&1; then
			row torch_both_modes - - - - "$(cut -c5- "$work/reports/torch_same_kernels.check" | head -n 1)" 0 PASS
		else
			row torch_both_modes - - - - "$(head -n 1 "$work/reports/torch_same_kernels.check" | cut -c1-46)" 0 FAIL
		fi
	fi
fi

# ---- the table
echo
echo "dnntrace real-GPU check: $device"
printf '%-18s %-8s %-6s %-6s %-5s %-46s %7s  %s\n' step untraced traced output truth analysis seconds result
printf '%s\n' "${rows[@]}"
echo "$passed passed, $failed failed, $skipped skipped in $(elapsed "$start_s") s; files in $work"
[ "$failed" = 0 ]
