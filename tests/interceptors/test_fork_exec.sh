#!/usr/bin/env bash
# A traced program that forks or execs (simgpu): same results as untraced;
# a child forked before any CUDA call and using CUDA is traced as its own
# process (its own vpid, its tensor numbering from 0), as is the parent; a
# program exec'd by a child inherits LD_PRELOAD and is traced too (every
# call of `cuda_calls api` has its event, in its own vpid).
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
[ -e "$SIMGPU_LIB/libcudart.so.13" ] || skip "simgpu not built ($SIMGPU_LIB)"
require_built "$TRACER" "$HELPERS/fork_exec" "$HELPERS/cuda_calls"

# vpid api tensor_id result, one line per alloc/free event.
alloc_free_events() {
	events "$1" | grep -E 'dnntrace_api:(alloc|free):' |
		sed -E 's/.*vpid = ([0-9]+).*api = \( "([A-Za-z_0-9]+)".*tensor_id = (-?[0-9]+), result = (-?[0-9]+).*/\1 \2 \3 \4/'
}

# --- fork ---------------------------------------------------------------
LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/fork_exec" fork >"$tmp/fork.plain" || fail "fork: untraced run failed"
record_raw "$tmp/fork.trace" "$tmp/fork.out" "$tmp/fork.err" "$SIMGPU_LIB" "$HELPERS/fork_exec" fork ||
	fail "fork: traced run failed (status $?)"
diff <(cut -d' ' -f1-4 "$tmp/fork.plain" | sort) <(cut -d' ' -f1-4 "$tmp/fork.out" | sort) >&2 ||
	fail "fork: results differ when traced"
alloc_free_events "$tmp/fork.trace" >"$tmp/fork.events"
[ "$(cut -d' ' -f1 "$tmp/fork.events" | sort -u | wc -l)" = 2 ] ||
	fail "fork: want events from 2 processes: $(tr '\n' ';' <"$tmp/fork.events")"
for vpid in $(cut -d' ' -f1 "$tmp/fork.events" | sort -u); do
	got=$(awk -v p="$vpid" '$1 == p { print $2, $3, $4 }' "$tmp/fork.events" | tr '\n' ';')
	[ "$got" = "cudaMalloc 0 0;cudaFree 0 0;" ] || fail "fork: process $vpid traced [$got]"
done

# --- fork while the power sampler runs (DNNTRACE_POWER_MS, simulated NVML) ---
# The child must not inherit the sampler thread: it samples nothing, and
# both processes end (no join of a thread that is not there), each traced.
# (A child forked after the parent's first event carries the parent's
# cached vpid/vtid contexts: LTTng-UST resets them only with
# liblttng-ust-fork.so preloaded. So the sampler is told apart by its
# thread: a sampler in the child would be a thread of its own.)
LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/fork_exec" after >"$tmp/after.plain" || fail "after: untraced run failed"
record_raw "$tmp/after.trace" "$tmp/after.out" "$tmp/after.err" "$SIMGPU_LIB" \
	timeout -s KILL 20 env DNNTRACE_POWER_MS=1 "$HELPERS/fork_exec" after ||
	fail "after: traced run failed (status $?; 137: hung)"
[ -s "$tmp/after.err" ] && fail "after: stderr: $(head -n 2 "$tmp/after.err")"
diff <(cut -d' ' -f1-4 "$tmp/after.plain" | sort) <(cut -d' ' -f1-4 "$tmp/after.out" | sort) >&2 ||
	fail "after: results differ when traced"
got=$(alloc_free_events "$tmp/after.trace" | cut -d' ' -f2,4 | tr '\n' ';')
[ "$got" = "cudaMalloc 0;cudaFree 0;cudaMalloc 0;cudaFree 0;cudaMalloc 0;cudaFree 0;" ] ||
	fail "after: want the 3 allocations and frees traced, got [$got]"
power_threads=$(events "$tmp/after.trace" | grep 'dnntrace_gpu:power' |
	sed -nE 's/.*vtid = ([0-9]+).*/\1/p' | sort -u | wc -l)
[ "$power_threads" = 1 ] || fail "after: power samples from $power_threads threads, want 1"

# --- exec ---------------------------------------------------------------
LD_LIBRARY_PATH="$SIMGPU_LIB" "$HELPERS/fork_exec" exec "$HELPERS/cuda_calls" api \
	>"$tmp/exec.plain" || fail "exec: untraced run failed"
record_raw "$tmp/exec.trace" "$tmp/exec.out" "$tmp/exec.err" "$SIMGPU_LIB" \
	"$HELPERS/fork_exec" exec "$HELPERS/cuda_calls" api || fail "exec: traced run failed (status $?)"
same_results <(grep -v '^parent ' "$tmp/exec.plain") <(grep -v '^parent ' "$tmp/exec.out") ||
	fail "exec: the exec'd program's results differ when traced"
parent_vpid=$(alloc_free_events "$tmp/exec.trace" | awk '$2 == "cudaMalloc" && $3 == 0 { print $1; exit }')
[ -n "$parent_vpid" ] || fail "exec: no parent allocation traced"
# The exec'd program alone, as check_events expects it: its vpid's events.
events "$tmp/exec.trace" >"$tmp/exec.txt"
child_vpid=$(sed -nE 's/.*vpid = ([0-9]+).*/\1/p' "$tmp/exec.txt" | grep -vx "$parent_vpid" | sort -u)
[ "$(echo "$child_vpid" | grep -c .)" = 1 ] || fail "exec: want one other process traced, got [$child_vpid]"
grep -v '^parent ' "$tmp/exec.out" >"$tmp/exec.child.out"
babeltrace2 --clock-cycles "$tmp/exec.trace" | grep -E "vpid = $child_vpid\b" |
	python3 "$CHECK_EVENTS" sim-api "$tmp/exec.child.out" || fail "exec: the exec'd program's calls are not all traced"
exit 0
