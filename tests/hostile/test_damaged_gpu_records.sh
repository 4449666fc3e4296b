#!/usr/bin/env bash
# Semantics: impossible GPU records are counted as damaged and left out.
# The scripted emitter's "badgpu" writes three good kernels (500 ns each at
# s, s+1000, s+2000: GPU span 2.5 us, busy 1.5 us) and one good copy among
# 3 records with end before start (two kernels, one set), 2 kernels with a
# time at 0 and 2 duplicates (a kernel and the copy, not next to their
# first). None of the bad ones may reach kernels.csv, the GPU times or the
# timeline; the summary counts them by fault and says the analysis is
# incomplete. The 4 launches whose kernels were all impossible are counted
# apart from the 1 whose record never came (each once). badgpu2 adds a
# device-1 group: index.csv gives each group's damaged count (7 and 0).
. "$DNNTRACE_ROOT/tests/analysis/lib.sh"
record "$work/trace" "$emit" badgpu >/dev/null || fail "could not record the badgpu scenario"
"$analyze" "$work/trace" -o "$work/report" >"$work/out" 2>"$work/err" ||
	fail "analyze failed: $(cat "$work/err")"
[ ! -s "$work/err" ] || fail "analyze complained: $(head -n 3 "$work/err")"
grep -qx 'damaged GPU records left out: 7 (end before start: 3, zero time: 2, duplicate: 2)' \
	"$work/out" || fail "wrong or missing count: $(grep -i 'damaged' "$work/out")"
grep -qx 'analysis incomplete: damaged GPU records were left out' "$work/out" ||
	fail "not marked incomplete"
grep -q '^launches without a kernel record: 1 (' "$work/out" ||
	fail "launches without a record: $(grep '^launches without' "$work/out"), want 1"
grep -qx 'launches whose kernel records were left out as damaged: 4' "$work/out" ||
	fail "launches with damaged records: $(grep '^launches whose' "$work/out"), want 4"
grep -qx 'GPU span: 2.500 us (first kernel start to last kernel end)' "$work/out" ||
	fail "wrong span: $(grep '^GPU span' "$work/out")"
grep -q '^GPU busy: 1.500 us ' "$work/out" ||
	fail "wrong busy time: $(grep '^GPU busy' "$work/out")"
csv="$work/report/kernels.csv"
[ -f "$csv" ] || fail "no kernels.csv"
rows=$(tail -n +2 "$csv" | wc -l)
[ "$rows" -eq 3 ] || fail "kernels.csv holds $rows kernels, not the 3 good ones: $(cat "$csv")"
good=$(tail -n +2 "$csv" | grep -c 'good_k')
[ "$good" -eq 3 ] || fail "kernels.csv: $good good_k rows of 3"
! grep -q 'bad_k' "$csv" || fail "a damaged kernel reached kernels.csv"
tl="$work/report/timeline.json"
[ -f "$tl" ] || fail "no timeline.json"
! grep -q 'bad_k' "$tl" || fail "a damaged kernel reached the timeline"
n=$(grep -o '"name":"good_k"' "$tl" | wc -l)
# each good kernel is there once as a GPU kernel; its launch may name it too
grep -q '"cat":"kernel"' "$tl" || fail "no kernel in the timeline"
k=$(grep -o '"cat":"kernel"' "$tl" | wc -l)
[ "$k" -eq 3 ] || fail "timeline holds $k kernels, not 3 (good_k named $n times)"
c=$(grep -o '"cat":"gpu_memcpy"' "$tl" | wc -l)
[ "$c" -eq 1 ] || fail "timeline holds $c GPU copies, not 1"
s=$(grep -o '"cat":"gpu_memset"' "$tl" | wc -l)
[ "$s" -eq 0 ] || fail "timeline holds $s GPU sets, not 0"

record "$work/trace2" "$emit" badgpu2 >"$work/pid2" || fail "could not record the badgpu2 scenario"
pid=$(awk '/^pid / { print $2 }' "$work/pid2")
"$analyze" "$work/trace2" -o "$work/report2" >"$work/out2" 2>"$work/err2" ||
	fail "analyze badgpu2 failed: $(cat "$work/err2")"
index="$work/report2/index.csv"
[ "$(head -n 1 "$index")" = pid,device,kernels,tensors,peak_bytes,failed_allocs,events_lost,damaged_gpu_records,report ] ||
	fail "index.csv header: $(head -n 1 "$index")"
grep -qx "$pid,0,3,1,4096,0,0,7,pid$pid-dev0" "$index" || fail "device 0's row: $(cat "$index")"
grep -qx "$pid,1,1,1,8192,0,0,0,pid$pid-dev1" "$index" || fail "device 1's row: $(cat "$index")"
grep -q '^total .* 0  *0  *7$' "$work/out2" || fail "table total: $(grep '^total' "$work/out2")"
grep -qx 'analysis incomplete: damaged GPU records were left out (see the reports below)' "$work/out2" ||
	fail "the table does not say the analysis is incomplete"
exit 0
