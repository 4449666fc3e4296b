#!/usr/bin/env bash
# ddp_launch.sh N TRUTH_ROOT WORKLOAD: starts N rank processes of WORKLOAD at
# once, as torchrun does (RANK, LOCAL_RANK, WORLD_SIZE; the simulated GPU
# shows N devices and each rank takes its own with cudaSetDevice), rank r
# writing its ground truth into TRUTH_ROOT/rank<r> and its pid into
# TRUTH_ROOT/pids (lines "rank pid"). Prints the ranks' stdout in rank
# order once all have ended; exits 1 if any rank failed. A test helper:
# must never leave a rank running.
set -u
[ $# -eq 3 ] || { echo "usage: ddp_launch.sh N TRUTH_ROOT WORKLOAD" >&2; exit 2; }
n=$1 root=$2 workload=$3
mkdir -p "$root" || exit 1
: >"$root/pids"
export SIMGPU_DEVICE_COUNT=$n WORLD_SIZE=$n
pids=()
for ((r = 0; r < n; r++)); do
	RANK=$r LOCAL_RANK=$r "$workload" "$root/rank$r" >"$root/rank$r.out" &
	pids+=($!)
	echo "$r $!" >>"$root/pids"
done
trap 'kill "${pids[@]}" 2>/dev/null' TERM INT
status=0
for ((r = 0; r < n; r++)); do
	wait "${pids[$r]}" || { echo "ddp_launch: rank $r failed" >&2; status=1; }
done
for ((r = 0; r < n; r++)); do
	cat "$root/rank$r.out"
	rm -f "$root/rank$r.out"
done
exit $status
