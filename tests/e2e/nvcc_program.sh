# shellcheck shell=bash
# nvcc_program.sh: what tests/e2e/test_nvcc_*.sh share: check_program NAME
# [truth] runs $DNNTRACE_BUILD/nvcc/NAME (a CUDA C++ program compiled by the
# toolkit's nvcc, tests/nvcc/) on simgpu untraced and under dnntrace record:
# same stdout and exit status; with "truth", the program's ground truth is
# the same both times and the analysis equals it exactly (compare.py).
# Sourced after lib.sh; skips when nvcc is absent (nothing was built).
nvcc_bin="${CUDA_HOME:-/usr/local/cuda}/bin/nvcc"
[ -x "$nvcc_bin" ] || skip "$nvcc_bin not found: the nvcc-compiled programs are not built"
require_built "$DNNTRACE_BUILD/lib/libdnntrace.so" "$DNNTRACE_BUILD/bin/dnntrace-analyze" \
	"$SIMGPU_LIB/libcudart.so.13" "$SIMGPU_LIB/libcuda.so.1"

check_program() {
	local name=$1 with_truth=${2:-} dir="$e2e_tmp/$1" program="$DNNTRACE_BUILD/nvcc/$1"
	local args=() traced_args=()
	require_built "$program"
	mkdir -p "$dir"
	if [ -n "$with_truth" ]; then
		args=("$dir/truth-untraced")
		traced_args=("$dir/truth")
	fi
	untraced "$program" "${args[@]}" >"$dir/untraced.out" 2>"$dir/untraced.err"
	local status=$?
	[ "$status" = 0 ] || fail "$name untraced exited $status: $(tail -n 2 "$dir/untraced.err")"
	record "$dir/trace" "$program" "${traced_args[@]}" >"$dir/traced.out" 2>"$dir/record.err"
	status=$?
	[ "$status" = 0 ] || fail "$name traced exited $status: $(tail -n 2 "$dir/record.err")"
	cmp -s "$dir/untraced.out" "$dir/traced.out" || fail "$name: stdout differs when traced"
	[ -s "$dir/traced.out" ] || fail "$name printed nothing"
	check_no_discarded "$dir/trace"
	analyze "$dir/trace" -o "$dir/report" >"$dir/summary.out" 2>"$dir/analyze.err" ||
		fail "$name: analyze exited $?: $(tail -n 1 "$dir/analyze.err")"
	[ -n "$with_truth" ] || return 0
	diff -r "$dir/truth-untraced" "$dir/truth" >/dev/null || fail "$name: ground truth differs when traced"
	compare truth "$dir/truth" "$dir/report" >"$dir/compare.out" ||
		fail "$name: analysis differs from its ground truth: $(head -n 3 "$dir/compare.out")"
}
