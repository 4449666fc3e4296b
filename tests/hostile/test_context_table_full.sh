#!/usr/bin/env bash
# Limits said, never silent: the tracer remembers at most 256 created
# contexts alive at once (interceptors/core/context_owner.c). context_reset
# many N creates N contexts, all alive, then destroys them. With 256 the
# table holds them all and nothing is said; with 300 the tracer says on
# stderr that 44 contexts were not held (their tensors count as the primary
# context's). The program's stdout and status are the same either way.
. "$DNNTRACE_ROOT/tests/hostile/lib.sh"
require_built "$WORKLOADS/context_reset"
for n in 256 300; do
	hostile_record "$TEST_TMP/trace$n" "$WORKLOADS/context_reset" many "$n" \
		>"$TEST_TMP/out$n" 2>"$TEST_TMP/err$n" || fail "record ($n) failed: $(tail -n 2 "$TEST_TMP/err$n")"
	grep -qx "context_reset: $n contexts done" "$TEST_TMP/out$n" || fail "$n: $(cat "$TEST_TMP/out$n")"
done
grep -q 'contexts were created while' "$TEST_TMP/err256" && fail "256 contexts: $(grep contexts "$TEST_TMP/err256")"
grep -qx 'dnntrace: 44 contexts were created while 256 others lived; their tensors are counted as their device'"'"'s primary context'"'"'s, so cuCtxDestroy did not end them' \
	"$TEST_TMP/err300" || fail "300 contexts: not said: $(cat "$TEST_TMP/err300")"
exit 0
