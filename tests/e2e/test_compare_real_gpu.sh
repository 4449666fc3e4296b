#!/usr/bin/env bash
# compare.py's real-GPU mode (`compare.py truth --real-gpu`, used by
# tests/gpu/run_gpu_check.sh) checked without a GPU: mxnet_net (cuDNN,
# cuBLAS and its own kernels, exact roles) runs on simgpu under
# real_gpu_like.so, which makes the run differ from the program's ground
# truth as a real GPU's did (cuBLAS allocates tensors of its own, one of
# them in the middle of the run; other kernel times), and the report's
# library kernels are renamed as a real library names them. The exact mode
# must see those differences, the real-GPU mode must accept them, and it
# must still catch every real difference planted in a copy of the report
# (a missing tensor, a wrong role, a program kernel renamed or touching a
# library's tensor, a named tensor the program never allocated, a wrong
# first use, a missing kernel, a zero duration). The same for the report
# of tests/nvcc/nv_cublas recorded on a real H100 (h100_nv_cublas/).
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/mxnet_net"
shim="$WORKLOADS/real_gpu_like.so"
require_built "$workload" "$shim" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudnn.so.9" \
	"$SIMGPU_LIB/libcublas.so.13"
# edit_csv set|drop FILE KEY_COLUMN KEY [COLUMN VALUE]: in the CSV FILE
# (fields without commas or quotes), the one row whose KEY_COLUMN is KEY
# gets VALUE in COLUMN, or is removed.
edit_csv() {
	local operation=$1 file=$2
	awk -F, -v OFS=, -v op="$operation" -v key_column="$3" -v key="$4" -v column="${5:-}" \
		-v value="${6:-}" '
		NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i
			  bad = !(key_column in at) || (op == "set" && !(column in at)); print; next }
		!bad && $at[key_column] == key { hits++; if (op == "drop") next; $at[column] = value }
		{ print }
		END { exit hits == 1 && !bad ? 0 : 1 }' "$file" >"$file.new" &&
		mv "$file.new" "$file"
}

# ---- the H100's own report of nv_cublas
h100="$E2E_DIR/h100_nv_cublas"
compare truth "$h100/truth" "$h100/report" >"$e2e_tmp/h100-exact.out" &&
	fail "exact mode accepts the H100 report of nv_cublas"
compare truth --real-gpu "$h100/truth" "$h100/report" >"$e2e_tmp/h100-real.out" ||
	fail "real-GPU mode rejects the H100 report of nv_cublas: $(head -n 3 "$e2e_tmp/h100-real.out")"
grep -qx 'allowed: 2 library-internal tensors: 0 (1024 bytes), 1 (33554432 bytes)' "$e2e_tmp/h100-real.out" ||
	fail "H100 nv_cublas: $(head -n 1 "$e2e_tmp/h100-real.out")"

# ---- mxnet_net on simgpu, made to look like a real GPU's run
preload="${asan_runtime:+$asan_runtime }$shim"
LD_PRELOAD="$preload" untraced "$workload" "$e2e_tmp/truth-untraced" \
	>"$e2e_tmp/untraced.out" 2>"$e2e_tmp/untraced.err" ||
	fail "untraced mxnet_net under real_gpu_like.so failed: $(tail -n 1 "$e2e_tmp/untraced.err")"
"${record_isolation[@]}" env LD_PRELOAD="$preload" "${asan_env[@]}" "$DNNTRACE" record --simgpu \
	-o "$e2e_tmp/trace" -- "$workload" "$e2e_tmp/truth" >"$e2e_tmp/traced.out" 2>"$e2e_tmp/record.err" ||
	fail "record exited $?: $(tail -n 2 "$e2e_tmp/record.err")"
cmp -s "$e2e_tmp/untraced.out" "$e2e_tmp/traced.out" || fail "stdout differs when traced"
diff -r "$e2e_tmp/truth-untraced" "$e2e_tmp/truth" >/dev/null || fail "ground truth differs when traced"
check_no_discarded "$e2e_tmp/trace"
analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >/dev/null 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
python3 "$E2E_DIR/rename_library_kernels.py" "$e2e_tmp/report" >/dev/null || fail "no library kernel to rename"

# The exact mode sees each kind of real-GPU difference.
compare truth "$e2e_tmp/truth" "$e2e_tmp/report" >"$e2e_tmp/exact.out" &&
	fail "exact mode accepts a report with library tensors, other times and kernel names"
for what in 'kernels: kernel [0-9]*: duration' 'tensors: tensor ids' \
	"kernels: kernel [0-9]*: name 'sm90_xmma_"; do
	grep -q "^$what" "$e2e_tmp/exact.out" || fail "exact mode did not report /$what/"
done

# The real-GPU mode accepts them, naming the three library tensors.
compare truth --real-gpu "$e2e_tmp/truth" "$e2e_tmp/report" >"$e2e_tmp/real.out" ||
	fail "real-GPU mode rejects the real-GPU-like report: $(head -n 3 "$e2e_tmp/real.out")"
allowed=$(grep '^allowed: ' "$e2e_tmp/real.out")
[[ "$allowed" =~ ^allowed:\ 3\ library-internal\ tensors:\ 0\ \(1024\ bytes\),\ 1\ \(33554432\ bytes\),\ ([0-9]+)\ \(4194304\ bytes\)$ ]] ||
	fail "real-GPU mode: $allowed"
lazy=${BASH_REMATCH[1]}
[ "$lazy" -gt 2 ] || fail "the lazily allocated library tensor is $lazy: not between the program's"

# Each planted difference is caught, by the check that owns it.
kernels="$e2e_tmp/report/kernels.csv"
row_of() { awk -F, -v api="$1" 'NR > 1 && $8 == api { print $1; exit }' "$kernels"; }
library=$(row_of cublasSgemm_v2)
program=$(row_of cudaLaunchKernel)
[ -n "$library" ] && [ -n "$program" ] || fail "no cublasSgemm_v2 or cudaLaunchKernel kernel in the report"
column() { # FILE KEY_COLUMN KEY COLUMN: a value of the report (fields without commas)
	awk -F, -v key_column="$2" -v key="$3" -v column="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
		$at[key_column] == key { print $at[column]; exit }' "$e2e_tmp/report/$1"
}
first_name=$(awk -F, 'NR == 2 { print $2 }' "$e2e_tmp/truth/tensors.csv")
first_id=$(awk -F, -v n="$first_name" 'NR > 1 && $2 == n { print $1; exit }' "$e2e_tmp/report/tensors.csv")
[ "$first_id" = 2 ] || fail "the truth's tensor 0 ($first_name) is report tensor ${first_id:-none}, expected 2"
lib_inputs=$(column kernels.csv index "$library" inputs)
lib_outputs=$(column kernels.csv index "$library" outputs)
program_touched=$(column kernels.csv index "$program" touched)

planted=0
# plant WHAT EXPECTED_LINE_REGEXP set|drop FILE ARGS...: edit_csv on a
# fresh copy of the report, then the real-GPU mode must fail with a line
# matching the regexp.
plant() {
	local what=$1 expected=$2 operation=$3 file=$4 copy="$e2e_tmp/planted-$planted"
	shift 4
	planted=$((planted + 1))
	cp -r "$e2e_tmp/report" "$copy"
	edit_csv "$operation" "$copy/$file" "$@" || fail "could not plant $what"
	compare truth --real-gpu "$e2e_tmp/truth" "$copy" >"$copy.out" &&
		fail "real-GPU mode accepts $what"
	grep -q "$expected" "$copy.out" || fail "real-GPU mode, $what: $(grep -v '^allowed:' "$copy.out" | head -n 2)"
}
plant "a missing tensor" "^tensors: tensor 0 ($first_name, [0-9]* bytes) missing" \
	drop tensors.csv id "$first_id"
plant "a wrong role" "^roles: kernel $library " \
	set kernels.csv index "$library" inputs "$lib_outputs"
plant "an input lost" "^roles: kernel $library " \
	set kernels.csv index "$library" inputs "${lib_inputs% *}"
plant "a program kernel touching a library tensor" "^kernels: kernel $program .*touches" \
	set kernels.csv index "$program" touched "$program_touched 1"
plant "a program kernel renamed" "^kernels: kernel $program: name" \
	set kernels.csv index "$program" name other_kernel
plant "a named tensor the program never allocated" "^tensors: report tensor 1 (workspace) is not in the truth" \
	set tensors.csv id 1 name workspace
plant "a wrong first use" "^tensors: tensor 0 ($first_name): first_use" \
	set tensors.csv id "$first_id" first_use 99
plant "a missing kernel" "^kernels: [0-9]* kernels, expected" \
	drop kernels.csv index "$program"
plant "a zero duration" "^kernels: kernel $library: duration '0'" \
	set kernels.csv index "$library" duration_ns 0
[ "$planted" = 9 ] || fail "planted $planted differences"
exit 0
