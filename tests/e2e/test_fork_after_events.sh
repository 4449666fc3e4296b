#!/usr/bin/env bash
# End-to-end: a process that forks AFTER it traced events (Python's
# multiprocessing, data loader workers) gives a child traced as its own
# process: `dnntrace record` preloads LTTng-UST's fork wrapper, without
# which the child's events carry the parent's cached vpid. Ground truth:
# fork_exec after = the parent allocates and frees, forks, the child
# allocates and frees, the parent again.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
program="$DNNTRACE_BUILD/tests/interceptors/fork_exec"
require_built "$program" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$SIMGPU_LIB/libcudart.so.13"

record "$e2e_tmp/trace" "$program" after >"$e2e_tmp/out" 2>"$e2e_tmp/err" ||
	fail "record exited $?: $(tail -n 2 "$e2e_tmp/err")"
babeltrace2 "$e2e_tmp/trace" 2>/dev/null | grep 'dnntrace_api:alloc' |
	sed -nE 's/.*vpid = ([0-9]+).*/\1/p' >"$e2e_tmp/alloc_vpids"
[ "$(wc -l <"$e2e_tmp/alloc_vpids")" = 3 ] ||
	fail "want 3 allocations traced, got $(wc -l <"$e2e_tmp/alloc_vpids")"
[ "$(sort -u "$e2e_tmp/alloc_vpids" | wc -l)" = 2 ] ||
	fail "the child's allocation carries the parent's vpid: $(tr '\n' ' ' <"$e2e_tmp/alloc_vpids")"
# the parent's two allocations share one vpid, the child's is the other
[ "$(sed -n 1p "$e2e_tmp/alloc_vpids")" != "$(sed -n 2p "$e2e_tmp/alloc_vpids")" ] &&
	[ "$(sed -n 1p "$e2e_tmp/alloc_vpids")" = "$(sed -n 3p "$e2e_tmp/alloc_vpids")" ] ||
	fail "allocation vpids in order: $(tr '\n' ' ' <"$e2e_tmp/alloc_vpids")"
echo "a child forked after traced events is its own process"
