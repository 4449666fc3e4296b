#!/usr/bin/env bash
# tests/gpu/check_torch_report.py (the real-GPU check's verdict on a traced
# PyTorch run) on two traces recorded on a real H100 (h100_torch/): the
# analysis of the run whose CUPTI records were linked to the calls passes,
# and the same run traced by the tracer that failed to link them (121
# launches without a kernel record, every api empty) fails on each check
# that must catch it: summary, api, ops, names, steps. A linked run checked
# against the wrong allocator mode fails on the tensors' kind. Both runs
# launched the same kernels (same-kernels).
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
require_built "$DNNTRACE_BUILD/bin/dnntrace-analyze"
fixture="$E2E_DIR/h100_torch"
check="$DNNTRACE_ROOT/tests/gpu/check_torch_report.py"
for run in linked unlinked; do
	mkdir -p "$e2e_tmp/$run"
	tar xzf "$fixture/$run.tar.gz" -C "$e2e_tmp/$run" || fail "cannot unpack $run.tar.gz"
	trace=$(ls -d "$e2e_tmp/$run"/*/)
	analyze "$trace" -o "$e2e_tmp/$run/report" >/dev/null 2>"$e2e_tmp/$run.err" ||
		fail "analyze $run exited $?: $(tail -n 1 "$e2e_tmp/$run.err")"
	analyze "$trace" -o "$e2e_tmp/$run/ops" --granularity op >/dev/null 2>"$e2e_tmp/$run.err" ||
		fail "analyze --granularity op $run exited $?: $(tail -n 1 "$e2e_tmp/$run.err")"
done

python3 "$check" run "$fixture/model.txt" "$e2e_tmp/linked/report" "$e2e_tmp/linked/ops" async \
	>"$e2e_tmp/linked.out" || fail "the linked H100 run fails: $(head -n 3 "$e2e_tmp/linked.out")"
grep -qx 'ok: 178 kernels (57 of library calls, 121 launches, 158 in train_step), 36 library call ops with kernels, 213 tensors, 10 parameters named' \
	"$e2e_tmp/linked.out" || fail "linked: $(cat "$e2e_tmp/linked.out")"

python3 "$check" run "$fixture/model.txt" "$e2e_tmp/unlinked/report" "$e2e_tmp/unlinked/ops" async \
	>"$e2e_tmp/unlinked.out" && fail "the unlinked H100 run passes"
for expected in '^summary: launches without a kernel record: 121 ' \
	'^api: 178 of 178 kernels have no api' '^api: 178 kernels touch no tensor' \
	'^ops: 36 library call ops ran no kernel' '^names: param:fc.weight (tensor 14) is used by no kernel' \
	'^steps: no kernel ran inside an NVTX range train_step'; do
	grep -q "$expected" "$e2e_tmp/unlinked.out" || fail "unlinked: no /$expected/: $(head -n 2 "$e2e_tmp/unlinked.out")"
done

python3 "$check" run "$fixture/model.txt" "$e2e_tmp/linked/report" "$e2e_tmp/linked/ops" no-caching \
	>"$e2e_tmp/kind.out" && fail "the async run passes as a no-caching one"
grep -q '^names: param:conv1.weight (tensor 0) is of kind stream_ordered, expected device' "$e2e_tmp/kind.out" ||
	fail "allocator mode: $(head -n 2 "$e2e_tmp/kind.out")"

python3 "$check" same-kernels "$e2e_tmp/linked/report" "$e2e_tmp/unlinked/report" >"$e2e_tmp/same.out" ||
	fail "same-kernels: $(cat "$e2e_tmp/same.out")"
sed -i '$d' "$e2e_tmp/unlinked/report/kernels.csv"
python3 "$check" same-kernels "$e2e_tmp/linked/report" "$e2e_tmp/unlinked/report" >"$e2e_tmp/same.out" &&
	fail "same-kernels accepts a run with a kernel less"
exit 0
