#!/usr/bin/env bash
# count_instructions.sh BUILD_DIR: the tracer figures of run_bench.sh ((a),
# (c), (c2), (e), (f) and the event floors) as instructions per call
# (valgrind's callgrind) instead of wall-clock ns, for a machine other work
# shares: instruction counts do not change with load. Each figure is the
# difference of two runs of N1 and N2 iterations (start-up cancels out),
# divided by the iterations between them; ratios as run_bench.sh prints
# them. Instructions are not time (cache misses, the clock read, system
# calls weigh differently): the wall-clock table of an idle machine is what
# docs/benchmarks.md reports; this says where a change moved the work. Slow (about
# 10 minutes). Prints the table; exits non-zero only when a measurement
# could not be taken.
set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || { echo "count_instructions: valgrind not installed" >&2; exit 1; }

N1=${N1:-4000}
N2=${N2:-8000}
B=$build/bench

# instructions CMD...: instructions CMD (and the programs it execs) ran
instructions() {
	valgrind --tool=callgrind --trace-children=yes --callgrind-out-file=/dev/null "$@" \
		2>&1 >/dev/null | awk '/Collected/ { n += $NF } END { print n + 0 }'
}

# per_call CMD...: instructions per iteration of CMD N (the bench programs
# run N/10+1 warm-up iterations, then 5 rounds of N)
per_call() {
	local a b
	a=$(instructions "$@" "$N1")
	b=$(instructions "$@" "$N2")
	awk -v a="$a" -v b="$b" -v n1="$N1" -v n2="$N2" \
		'BEGIN { printf "%.0f", (b - a) / ((n2 / 10 + 5 * n2) - (n1 / 10 + 5 * n1)) }'
}

preload=(env LD_LIBRARY_PATH="$sim" LD_PRELOAD="$DNNTRACE_LIB")
nocupti=(env SIMGPU_CUPTI_BUSY=1 LD_LIBRARY_PATH="$sim" LD_PRELOAD="$DNNTRACE_LIB")
echo "counting instructions (valgrind, two runs per figure)..." >&2
tp=$(( $(traced 'bench_ref:*' per_call env LD_LIBRARY_PATH="$sim" "$B/bench_launch" tracepoint) -
       $(per_call env LD_LIBRARY_PATH="$sim" "$B/bench_launch" tracepoint) ))
cuda_bare=$(per_call env LD_LIBRARY_PATH="$sim" "$B/bench_alloc" cuda)
cuda_rec=$(traced 'dnntrace_*' per_call "${preload[@]}" "$B/bench_alloc" cuda)
libc_bare=$(per_call "$B/bench_alloc" libc)
libc_rec=$(traced 'lttng_ust_libc:*' per_call env LD_PRELOAD="$libc_wrapper" "$B/bench_alloc" libc)
row() { printf "%-4s %-62s %s\n" "$1" "$2" "$3"; }
added() { # added NAME PROGRAM MODE: bare, recorded, recorded without CUPTI records
	local bare rec no
	bare=$(per_call env LD_LIBRARY_PATH="$sim" "$B/$2" "$3")
	rec=$(traced 'dnntrace_*' per_call "${preload[@]}" "$B/$2" "$3")
	no=$(traced 'dnntrace_*' per_call "${nocupti[@]}" "$B/$2" "$3" 2>/dev/null)
	row "$1" "$2 $3: $((rec - bare)) instructions ($((no - bare)) without CUPTI records)" \
		"$(awk -v r=$((rec - bare)) -v n=$((no - bare)) -v t="$tp" \
			'BEGIN { printf "ratio %.2f (with CUPTI %.2f)", n / t, r / t }')"
}
{
	echo "instructions per call or pair (callgrind); one bare tracepoint: $tp"
	row "(a)" "cudaMalloc+cudaFree: $((cuda_rec - cuda_bare)); libc wrapper malloc+free: $((libc_rec - libc_bare))" \
		"$(awk -v c=$((cuda_rec - cuda_bare)) -v l=$((libc_rec - libc_bare)) 'BEGIN { printf "ratio %.2f", c / l }')"
	added "(c)" bench_launch launch
	added "(c2)" bench_launch launch_long
	added "(e)" bench_libs conv
	added "(f)" bench_libs lt
	pair=$(( $(traced 'dnntrace_*' per_call "$B/bench_events" pair) - $(per_call "$B/bench_events" pair) ))
	event=$(( $(traced 'dnntrace_*' per_call "$B/bench_events" launch) - $(per_call "$B/bench_events" launch) ))
	echo "floors: the alloc+free events alone $pair (ratio $(awk -v p="$pair" -v l=$((libc_rec - libc_bare)) 'BEGIN { printf "%.2f", p / l }')); the launch event alone $event (ratio $(awk -v e="$event" -v t="$tp" 'BEGIN { printf "%.2f", e / t }'))"
}
