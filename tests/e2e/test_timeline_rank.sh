#!/usr/bin/env bash
# End-to-end: the timeline's rank is the one the launcher gave each
# process (the status event's rank, trace format 6), not its order of
# appearance. Three nvtx_steps processes run one after the other under
# one recording: the first with RANK=1, the second with RANK=0 (the other
# way round from their order), the third with SLURM_PROCID=7 and
# LOCAL_RANK=3 (a global rank goes before a local one). Each
# timeline-pid<PID>.json says its rank with HTA's pattern
# "rank":\s+(\d+), and json.load reads the same number.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
require_built "$WORKLOADS/nvtx_steps" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudart.so.13"

cat >"$e2e_tmp/launch.sh" <<'SH'
#!/usr/bin/env bash
# three processes one after the other, each with its rank's environment
set -u
workload=$1 root=$2
clean=(env -u RANK -u LOCAL_RANK -u OMPI_COMM_WORLD_RANK -u PMI_RANK -u PMIX_RANK
	-u SLURM_PROCID -u OMPI_COMM_WORLD_LOCAL_RANK -u SLURM_LOCALID)
"${clean[@]}" RANK=1 "$workload" "$root/a" >/dev/null & echo "$! 1" >"$root/pids"; wait $! || exit 1
"${clean[@]}" RANK=0 "$workload" "$root/b" >/dev/null & echo "$! 0" >>"$root/pids"; wait $! || exit 1
"${clean[@]}" SLURM_PROCID=7 LOCAL_RANK=3 "$workload" "$root/c" >/dev/null &
echo "$! 7" >>"$root/pids"; wait $! || exit 1
SH
chmod +x "$e2e_tmp/launch.sh"
mkdir -p "$e2e_tmp/truth"
record "$e2e_tmp/trace" "$e2e_tmp/launch.sh" "$WORKLOADS/nvtx_steps" "$e2e_tmp/truth" \
	>/dev/null 2>"$e2e_tmp/record.err" ||
	fail "record exited $?: $(tail -n 2 "$e2e_tmp/record.err")"
analyze "$e2e_tmp/trace" -o "$e2e_tmp/report" >/dev/null 2>"$e2e_tmp/analyze.err" ||
	fail "analyze exited $?: $(tail -n 1 "$e2e_tmp/analyze.err")"
python3 - "$e2e_tmp/report" "$e2e_tmp/truth/pids" >"$e2e_tmp/check.out" <<'PY' ||
import json, re, sys
report, pids = sys.argv[1], sys.argv[2]
bad = []
want = dict(line.split() for line in open(pids))
if len(want) != 3:
    bad.append(f"{len(want)} processes started")
for pid, rank in want.items():
    path = f"{report}/timeline-pid{pid}.json"
    text = open(path).read()
    m = re.search(r'"rank":\s+(\d+)', text)
    got = json.loads(text)["distributedInfo"]["rank"]
    if not m or m.group(1) != rank or got != int(rank):
        bad.append(f"pid {pid}: rank {m and m.group(1)} / {got}, want {rank}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	fail "ranks: $(head -n 3 "$e2e_tmp/check.out")"
exit 0
