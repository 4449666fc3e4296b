#!/usr/bin/env bash
# The cuBLAS/cuBLASLt wrappers on the simulated libraries: tests/libs/cublas_calls
# (linked against the REAL toolkit libraries, run on simgpu) recorded under a
# private LTTng session; every dnntrace_lib:call must match the program's
# ground truth (roles, shapes, dtypes, params, status), each call's kernels
# link to its call_id, the cublasLtMatmul inside cublasGemmEx is not traced
# twice, and every call returns the same status traced, preloaded without a
# session, and plain.
. "$DNNTRACE_ROOT/tests/libs/lib.sh"
PROGRAM="$DNNTRACE_BUILD/tests/libs/cublas_calls"
[ -e "$SIMGPU_LIB/libcublas.so.13" ] || skip "simulated cuBLAS not built ($SIMGPU_LIB)"
require_built "$TRACER" "$PROGRAM"

LD_LIBRARY_PATH="$SIMGPU_LIB" "$PROGRAM" >"$tmp/plain.out" || fail "cublas_calls failed untraced"
grep -q '^expect cublasLtMatmul' "$tmp/plain.out" || fail "cublas_calls printed no expectations"

# Preloaded, no session listening: forwards only, same statuses.
mapfile -t env_args < <(traced_env "$SIMGPU_LIB")
env "${env_args[@]}" "$PROGRAM" >"$tmp/idle.out" || fail "cublas_calls failed preloaded without a session"
diff -u <(grep '^call' "$tmp/plain.out") <(grep '^call' "$tmp/idle.out") >&2 ||
	fail "statuses differ preloaded without a session"

record_raw "$tmp/trace" "$tmp/traced.out" "$tmp/traced.err" "$SIMGPU_LIB" "$PROGRAM" ||
	fail "traced run failed (status $?): $(head -n 3 "$tmp/traced.err")"
diff -u <(grep '^call' "$tmp/plain.out") <(grep '^call' "$tmp/traced.out") >&2 ||
	fail "statuses differ when traced"
[ -s "$tmp/traced.err" ] && fail "traced run wrote to stderr: $(head -n 3 "$tmp/traced.err")"
events "$tmp/trace" | python3 "$DNNTRACE_ROOT/tests/libs/cublas_check.py" "$tmp/traced.out" ||
	fail "trace does not match the calls"
exit 0
