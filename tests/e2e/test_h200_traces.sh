#!/usr/bin/env bash
# Traces recorded on a real H200 (tests/e2e/h200/README.txt), analyzed
# here. PyTorch in the default --gpu-records=work mode: every kernel linked
# to its call, every parameter named (check_torch_report.py, the check
# make gpu-check runs). Graphs whose clones name no exec (what an H200's
# CUPTI gave the tracer of that day): every graph kernel is counted as
# having unknown tensors in the summary, touches every tensor live at it,
# and no tensor is called idle across one; the ordinary kernels keep their
# own tensors. Ground truth: the programs' (tests/nvcc/nv_graph.cu: x and
# y, prepare(x), graph launch, prepare(y), graph launch).
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
require_built "$DNNTRACE_BUILD/bin/dnntrace-analyze"
fixture="$E2E_DIR/h200"
unpack() {
	mkdir -p "$e2e_tmp/$1"
	tar xzf "$fixture/$1.tar.gz" -C "$e2e_tmp/$1" || fail "cannot unpack $1.tar.gz"
	ls -d "$e2e_tmp/$1"/*/
}

trace=$(unpack torch_work)
mkdir -p "$e2e_tmp/torch"
analyze "$trace" -o "$e2e_tmp/torch/report" >"$e2e_tmp/torch.summary" 2>"$e2e_tmp/torch.err" ||
	fail "analyze torch exited $?: $(tail -n 1 "$e2e_tmp/torch.err")"
analyze "$trace" -o "$e2e_tmp/torch/ops" --granularity op >/dev/null 2>"$e2e_tmp/torch.err" ||
	fail "analyze --granularity op exited $?: $(tail -n 1 "$e2e_tmp/torch.err")"
grep -q '^gpu records: work ' "$e2e_tmp/torch.summary" || fail "mode: $(grep '^gpu records' "$e2e_tmp/torch.summary")"
python3 "$DNNTRACE_ROOT/tests/gpu/check_torch_report.py" run "$E2E_DIR/h100_torch/model.txt" \
	"$e2e_tmp/torch/report" "$e2e_tmp/torch/ops" async >"$e2e_tmp/torch.check" ||
	fail "the H200 PyTorch trace: $(head -n 3 "$e2e_tmp/torch.check")"
grep -qx 'ok: 178 kernels (57 of library calls, 121 launches, 158 in train_step), 36 library call ops with kernels, 213 tensors, 10 parameters named' \
	"$e2e_tmp/torch.check" || fail "torch: $(cat "$e2e_tmp/torch.check")"

for name in nv_graph nv_graph_memory; do
	trace=$(unpack "$name")
	analyze "$trace" -o "$e2e_tmp/$name/report" >"$e2e_tmp/$name.summary" 2>"$e2e_tmp/$name.err" ||
		fail "analyze $name exited $?: $(tail -n 1 "$e2e_tmp/$name.err")"
	python3 - "$e2e_tmp/$name/report" "$e2e_tmp/$name.summary" "$name" <<'PY' || fail "$name: the graph kernels' tensors are guessed or lost"
import csv, re, sys
report, summary, name = sys.argv[1:]
kernels = list(csv.DictReader(open(f"{report}/kernels.csv")))
graph = [i for i, k in enumerate(kernels) if k["api"] == "cudaGraphLaunch"]
m = re.search(r"^graph kernels with unknown tensors: (\d+) ", open(summary).read(), re.M)
assert m and int(m.group(1)) == len(graph) > 0, (m and m.group(0), len(graph))
if name == "nv_graph":
    # x (0) and y (1) live throughout: each graph kernel touches both;
    # prepare(x) is kernel 0, prepare(y) kernel 3, each its own tensor
    assert len(kernels) == 6 and graph == [1, 2, 4, 5], [k["api"] for k in kernels]
    assert all(kernels[i]["touched"].split() == ["0", "1"] for i in graph), kernels
    assert kernels[0]["touched"] == "0" and kernels[3]["touched"] == "1", kernels
unseen = re.search(r"^graph allocations never seen in a launch: (\d+) \((\d+) bytes;", open(summary).read(), re.M)
if name == "nv_graph_memory":
    # graphs A, B and C each allocate 16 KiB in a memory node
    assert unseen and unseen.groups() == ("3", "49152"), unseen and unseen.group(0)
else:
    assert not unseen, unseen.group(0)
for p in csv.DictReader(open(f"{report}/swap.csv")):
    start, end = int(p["period_start_kernel"]), int(p["period_end_kernel"])
    assert not any(start < g < end for g in graph), f"idle across a graph kernel: {p}"
PY
done
exit 0
