#!/usr/bin/env bash
# End-to-end: memory_snapshot.pickle, PyTorch's memory snapshot format
# (tests/analysis/check_memory_snapshot.py: Python's pickle and
# pickletools, no torch), on two workloads whose tensors are known by
# construction: cnn_train (the demo: 127 named tensors, the categories of
# tests/workloads/cnn_train_categories.txt) and torch_async_alloc (every
# tensor a cudaMallocAsync on a stream of its own making, gradients freed
# through another stream after event waits: free_completed after
# free_requested). Also tensors.csv's addr and stream columns, which the
# snapshot must agree with; and --snapshot-events N: the device trace is
# the last N events of the whole one (the same values), the segments the
# same, and the summary says how many of how many were kept (a whole trace
# says nothing).
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
require_built "$WORKLOADS/cnn_train" "$WORKLOADS/torch_async_alloc" \
	"$DNNTRACE_BUILD/lib/libdnntrace.so" "$DNNTRACE_BUILD/bin/dnntrace-analyze" \
	"$SIMGPU_LIB/libcudart.so.13"
snapshot() { python3 "$DNNTRACE_ROOT/tests/analysis/check_memory_snapshot.py" "$@"; }

for workload in cnn_train torch_async_alloc; do
	dir="$e2e_tmp/$workload"
	record "$dir/trace" "$WORKLOADS/$workload" "$dir/truth" >/dev/null 2>"$dir.record.err" ||
		fail "$workload: record exited $?: $(tail -n 1 "$dir.record.err")"
	categories=()
	[ "$workload" = cnn_train ] &&
		categories=(--categories "$DNNTRACE_ROOT/tests/workloads/cnn_train_categories.txt")
	analyze "$dir/trace" -o "$dir/report" "${categories[@]}" >/dev/null 2>"$dir.analyze.err" ||
		fail "$workload: analyze exited $?: $(tail -n 1 "$dir.analyze.err")"
	snapshot "$dir/report" "$dir/truth" 0 >"$dir.snapshot.out" ||
		fail "$workload: memory_snapshot.pickle: $(head -n 3 "$dir.snapshot.out")"
done

# cnn_train: the rules' categories reach the snapshot (batch is the rules
# file's own name, not dnntrace's)
python3 - "$e2e_tmp/cnn_train/report/memory_snapshot.pickle" <<'PY' ||
import pickle, sys
trace = pickle.load(open(sys.argv[1], "rb"))["device_traces"][0]
cats = {e["category"] for e in trace if e["action"] == "alloc"}
sys.exit(0 if {"batch", "gradient", "parameter", "activation", "optimizer_state"} <= cats else 1)
PY
	fail "cnn_train: the snapshot lacks the --categories names"
# torch_async_alloc: every tensor on a stream of its own making (not 0),
# and some frees complete after they were requested
python3 - "$e2e_tmp/torch_async_alloc/report/memory_snapshot.pickle" <<'PY' ||
import pickle, sys
trace = pickle.load(open(sys.argv[1], "rb"))["device_traces"][0]
allocs = [e for e in trace if e["action"] == "alloc"]
requested = {}
later = 0
for e in trace:
    if e["action"] == "free_requested":
        requested[e["addr"]] = e["time_us"]
    elif e["action"] == "free_completed":
        later += e["time_us"] > requested[e["addr"]]
sys.exit(0 if allocs and all(e["stream"] != 0 for e in allocs) and later > 0 else 1)
PY
	fail "torch_async_alloc: streams or stream-ordered frees wrong in the snapshot"
# --snapshot-events 10 on cnn_train: its last 10 events, and one summary
# line; the default (100000) keeps this small trace whole, unsaid
dir="$e2e_tmp/cnn_train"
analyze "$dir/trace" -o "$dir/report10" --snapshot-events 10 \
	--categories "$DNNTRACE_ROOT/tests/workloads/cnn_train_categories.txt" >"$dir.report10.out" 2>&1 ||
	fail "cnn_train: analyze --snapshot-events 10 failed: $(tail -n 1 "$dir.report10.out")"
total=$(python3 -c 'import pickle, sys; print(len(pickle.load(open(sys.argv[1], "rb"))["device_traces"][0]))' \
	"$dir/report/memory_snapshot.pickle")
[ "$total" -gt 10 ] || fail "cnn_train: only $total snapshot events"
grep -qxF "memory snapshot: the last 10 of $total allocator events (--snapshot-events N; 0: all)" \
	"$dir/report10/summary.txt" || fail "cnn_train: no snapshot line in: $(cat "$dir/report10/summary.txt")"
grep -q "^memory snapshot:" "$dir/report/summary.txt" && fail "the whole snapshot has a summary line"
python3 - "$dir/report/memory_snapshot.pickle" "$dir/report10/memory_snapshot.pickle" <<'PY' ||
import pickle, sys
whole, last = (pickle.load(open(p, "rb")) for p in sys.argv[1:])
ok = (last["device_traces"][0] == whole["device_traces"][0][-10:]
      and last["segments"] == whole["segments"]
      and len(last["device_traces"]) == len(whole["device_traces"]))
sys.exit(0 if ok else 1)
PY
	fail "cnn_train: --snapshot-events 10 is not the last 10 events of the whole snapshot"
exit 0
