#!/usr/bin/env bash
# dnntrace plot and the pictures dnntrace analyze draws: on a report of the
# mem_categories workload (recorded on the simulated GPU), analyze leaves
# plots/ with the G10 figures 2-4 and the category chart, and notes each
# plot whose CSV is absent; with small overheads.csv and energy.csv
# (the formats of the overhead and energy reports) dnntrace plot draws all
# six. Every file must be a PNG of some substance. Bad REPORT_DIR: exit 1,
# one line. Skipped when matplotlib is not installed.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
python3 -c 'import matplotlib' 2>/dev/null || /usr/bin/python3 -c 'import matplotlib' 2>/dev/null ||
	skip "matplotlib is not installed (python3-matplotlib, make deps)"
workload="$DNNTRACE_BUILD/workloads/mem_categories"
[ -x "$workload" ] || fail "missing $workload (build with make all)"

# png FILE...: each is a PNG (signature and IHDR) of at least 10 kB.
png() {
	local f
	for f in "$@"; do
		[ -f "$f" ] || fail "no $f"
		[ "$(head -c 16 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a0000000d49484452 ] ||
			fail "$f is not a PNG"
		[ "$(wc -c <"$f")" -ge 10000 ] || fail "$f is only $(wc -c <"$f") bytes"
	done
}

SIMGPU_TIME_SCALE=1 SIMGPU_CONTEXT_BYTES=64M "${record_isolation[@]}" "$DNNTRACE" record --simgpu \
	--power-ms 0 -o "$scratch/trace" -- "$workload" "$scratch/truth" >/dev/null 2>"$scratch/record.err" ||
	fail "record failed: $(tail -n 2 "$scratch/record.err")"
env -u DNNTRACE_PLOTS "$DNNTRACE" analyze "$scratch/trace" -o "$scratch/report" >"$scratch/summary" 2>"$scratch/analyze.err" ||
	fail "analyze failed: $(tail -n 1 "$scratch/analyze.err")"
cmp -s "$scratch/summary" "$scratch/report/summary.txt" || fail "analyze printed more than the summary on stdout"
four="memory_over_kernels.png inactive_cdf.png inactive_vs_size.png categories.png"
(cd "$scratch/report/plots" && png $four)
# the workload has no ops (no NVTX range, no library call) and was recorded
# without power samples: both files hold their header alone
grep -qxF "dnntrace plot: overheads.csv has no ops: no per-op overhead plot" "$scratch/analyze.err" ||
	fail "no note for the empty overheads.csv: $(cat "$scratch/analyze.err")"
grep -qxF "dnntrace plot: energy.csv has no rows: no energy plot" "$scratch/analyze.err" ||
	fail "no note for the empty energy.csv: $(cat "$scratch/analyze.err")"
[ ! -e "$scratch/report/plots/overheads.png" ] || fail "overheads.png without ops"
rm -f "$scratch/report/overheads.csv" "$scratch/report/energy.csv"
"$DNNTRACE" plot "$scratch/report" >/dev/null 2>"$scratch/plot.err" ||
	fail "dnntrace plot failed: $(tail -n 1 "$scratch/plot.err")"
grep -qxF "dnntrace plot: overheads.csv absent: no per-op overhead plot" "$scratch/plot.err" ||
	fail "no note for the absent overheads.csv: $(cat "$scratch/plot.err")"
grep -qxF "dnntrace plot: energy.csv absent: no energy plot" "$scratch/plot.err" ||
	fail "no note for the absent energy.csv"

cat >"$scratch/report/overheads.csv" <<'CSV'
op,count,t1_mean_us,t1_std_us,t2_mean_us,t2_std_us,t3_mean_us,t3_std_us,t4_mean_us,t4_std_us,t5_mean_us,t5_std_us
aten::conv2d,12,40.5,3.1,12.0,1.0,8.0,0.5,6.2,0.3,3.0,0.2
aten::relu,12,15.0,2.0,4.0,0.4,2.5,0.2,5.1,0.1,0.0,0.0
"aten::addmm, fused",3,80.0,9.0,20.0,2.0,11.0,1.0,7.5,0.4,9.0,1.0
CSV
cat >"$scratch/report/energy.csv" <<'CSV'
kind,name,count,time_us,energy_mj,mean_power_w
op,aten::conv2d,12,3600.0,792.0,220.0
op,aten::relu,12,240.0,36.0,150.0
kernel,implicit_convolve_sgemm,12,3500.0,780.0,222.9
CSV
"$DNNTRACE" plot "$scratch/report" >"$scratch/plot.out" 2>"$scratch/plot.err" ||
	fail "dnntrace plot failed: $(tail -n 1 "$scratch/plot.err")"
[ ! -s "$scratch/plot.out" ] || fail "dnntrace plot wrote to stdout"
[ ! -s "$scratch/plot.err" ] || fail "dnntrace plot complained: $(cat "$scratch/plot.err")"
(cd "$scratch/report/plots" && png $four overheads.png energy.png)

for bad in "$scratch/absent" "$scratch/truth"; do
	"$DNNTRACE" plot "$bad" >/dev/null 2>"$scratch/err" && fail "dnntrace plot accepted $bad"
	[ "$(grep -c . "$scratch/err")" = 1 ] || fail "dnntrace plot $bad: not one line: $(cat "$scratch/err")"
done
grep -q "no such report directory" <("$DNNTRACE" plot "$scratch/absent" 2>&1) || fail "missing directory: unclear message"
exit 0
