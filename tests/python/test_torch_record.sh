#!/usr/bin/env bash
# With the real libdnntrace.so: a PyTorch program (Debian's CPU build) prints
# the same under the bare preload, under `dnntrace record` and under `dnntrace
# record --torch-names` as without any; the --torch-names trace holds the
# helper's names (dnntrace_api:tag: parameters, gradients, optimizer state,
# activations) and, when the library is an NVTX injection, one train_step
# range per optimizer step (dnntrace_nvtx:start/end).
. "$DNNTRACE_ROOT/tests/python/lib.sh"
require_torch
lib=$TRACER
require_built "$lib"
command -v babeltrace2 >/dev/null || fail "babeltrace2 not installed (make deps)"
program="$TESTS_PYTHON/train_tiny.py"

# Python itself leaks by design, so with an ASan-built tracer (common.sh)
# leak checking is off, and `dnntrace record` is handed the ASan runtime as
# LD_PRELOAD, which it keeps first.
python_asan_env=("${asan_env[@]}")
[ -n "$asan_runtime" ] && python_asan_env+=("LD_PRELOAD=$asan_runtime")

expected=$(env -u LD_PRELOAD "$python" "$program" 2>"$scratch/plain.err") ||
	fail "untraced run failed: $(tail -n 1 "$scratch/plain.err")"
[ "$(echo "$expected" | wc -l)" = 5 ] || fail "untraced run printed: $expected"

out=$(env "${python_asan_env[@]}" LD_PRELOAD="$tracer_preload" "$python" "$program" 2>"$scratch/preload.err") ||
	fail "run under the preload failed: $(tail -n 1 "$scratch/preload.err")"
[ "$out" = "$expected" ] || fail "output under the preload differs: $out"

for names in "" --torch-names; do
	trace="$scratch/trace${names:+-names}"
	out=$("${record_isolation[@]}" env -u LD_PRELOAD "${python_asan_env[@]}" "$DNNTRACE" record $names -o "$trace" -- \
		"$python" "$program" 2>"$scratch/record.err") ||
		fail "record $names failed: $(tail -n 1 "$scratch/record.err")"
	[ "$out" = "$expected" ] || fail "output under record $names differs: $out"
done

babeltrace2 "$scratch/trace" >"$scratch/plain.txt" 2>&1 || fail "babeltrace2 cannot read the trace without names"
grep -q 'dnntrace_api:tag' "$scratch/plain.txt" && fail "tags in a trace recorded without --torch-names"
babeltrace2 "$scratch/trace-names" >"$scratch/names.txt" 2>&1 || fail "babeltrace2 cannot read the --torch-names trace"
tag_names=$(sed -n 's/.*dnntrace_api:tag:.*name = "\([^"]*\)".*/\1/p' "$scratch/names.txt" | sort -u)
for name in param:0.weight param:0.bias param:2.weight param:2.bias grad:0.weight grad:2.bias \
	optim:0.weight.momentum_buffer optim:2.bias.momentum_buffer act:0 act:1 act:2 act:CrossEntropyLoss; do
	echo "$tag_names" | grep -qxF "$name" || fail "no tag named $name in the trace (names: $(echo "$tag_names" | tr "\n" " "))"
done
unexpected=$(echo "$tag_names" | grep -v '^\(param\|grad\|optim\|act\):')
[ -z "$unexpected" ] || fail "unexpected tag names: $unexpected"

if nm -D --defined-only "$lib" | grep -qw InitializeInjectionNvtx2; then
	starts=$(grep -c 'dnntrace_nvtx:start:.*name = "train_step"' "$scratch/names.txt")
	ends=$(grep -c 'dnntrace_nvtx:end:' "$scratch/names.txt")
	[ "$starts" = 3 ] && [ "$ends" = 3 ] ||
		fail "expected 3 train_step ranges (one per optimizer step), got $starts starts, $ends ends"
else
	echo "note: $lib is no NVTX injection library; step ranges not checked" >&2
fi
exit 0
