#!/usr/bin/env bash
# run_tests.sh BUILD_DIR: runs every compiled test BUILD_DIR/tests/test_* and
# every script test tests/*/test_*.sh, simgpu/test_*.sh and simgpu/*/test_*.sh, each under a
# time limit, prints one PASS/FAIL/SKIP line per test and a closing `N passed, N failed, N skipped`
# line; exits non-zero when any test failed. Must never hide a failure (a test
# that crashes, hangs or prints nothing still counts as failed).
#
# Environment: TEST_TIMEOUT (seconds per test, default 120: a hang detector,
# with room for a loaded machine), TEST_JOBS (tests run at once, default the
# number of processors; lines come in the order tests end), TEST_FILTER (run
# only tests whose name contains it), TEST_SKIP_PATTERN (extended regexp of
# test names to leave out, e.g. for the sanitizer pass), TEST_LOG_DIR (where
# each test's output is kept; default BUILD_DIR/test-logs), TEST_KEEP_FAILED
# (where a failing script test leaves its scratch directory, named
# dnntrace-TEST.XXXXXX, traces and reports included; default
# BUILD_DIR/test-failed; tests/lib/common.sh), TEST_ORDER_FILE (the seconds
# each test took in an earlier run, "SECONDS NAME" a line; default
# BUILD_DIR/test-seconds, which every run rewrites).
#
# Order: tests start longest first by TEST_ORDER_FILE's seconds, tests it
# does not know (new ones) before all of them, in their listed order. With
# TEST_JOBS at once, a long test started last would keep one job busy after
# the others have run out of work; longest first leaves only short tests
# for the end. Order decides nothing else: each test has its own daemon and
# scratch directory, and its result line says which it is.
set -u

[ $# -eq 1 ] || { echo "usage: run_tests.sh BUILD_DIR" >&2; exit 2; }
[ -d "$1" ] || { echo "run_tests: build directory $1 not found (run make first)" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd -P)
build=$(cd "$1" && pwd -P)
export DNNTRACE_ROOT="$root" DNNTRACE_BUILD="$build"
timeout_s=${TEST_TIMEOUT:-120}
# Tests at once: each runs against its own session daemon and scratch
# directory, and every timing check must hold on a loaded machine anyway.
# One per processor, though a test keeps a processor busy only about half
# its time (CPU over wall of all its processes, daemons included,
# 2026-11-28: 0.42-0.61 in the main build, 0.63-0.73 under ASan): twice the
# processors would use an idle machine's, but on a machine already loaded
# the timed scenarios of tests/analysis/emit_scripted are descheduled past
# their windows again and again (two suites at once at 4 jobs each, load
# 14: test_analysis_reader_format2.sh re-recorded 24 times and timed out).
# TEST_JOBS=4 on an idle 2-core machine is the caller's choice.
jobs=${TEST_JOBS:-$(nproc)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "run_tests: TEST_JOBS must be a positive number" >&2; exit 2; }
log_dir=${TEST_LOG_DIR:-$build/test-logs}
order_file=${TEST_ORDER_FILE:-$build/test-seconds}
seconds_file="$build/test-seconds.new.$$"
: >"$seconds_file" || { echo "run_tests: cannot write $seconds_file" >&2; exit 2; }
trap 'rm -f "$seconds_file" "$seconds_file.all"' EXIT
export TEST_KEEP_FAILED=${TEST_KEEP_FAILED:-$build/test-failed}
mkdir -p "$log_dir"

tests=()
for program in "$build"/tests/test_*; do
	[ -f "$program" ] && [ -x "$program" ] && tests+=("$program")
done
for script in "$root"/tests/*/test_*.sh "$root"/simgpu/test_*.sh "$root"/simgpu/*/test_*.sh; do
	[ -f "$script" ] && tests+=("$script")
done

# Runs one test and prints its line (one write: lines of parallel tests never
# interleave); returns 0 passed, 77 skipped, 1 failed.
run_one() {
	local test=$1 name=$2 log start status seconds reason
	log="$log_dir/$(echo "$name" | tr '/' '_').log"
	start=$(date +%s.%N)
	if [ -x "$test" ]; then
		(cd "$build" && timeout -k 5 "$timeout_s" "$test") >"$log" 2>&1 </dev/null
	else
		(cd "$build" && timeout -k 5 "$timeout_s" bash "$test") >"$log" 2>&1 </dev/null
	fi
	status=$?
	seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
	# One short write with O_APPEND: lines of parallel tests never mix.
	echo "$seconds $name" >>"$seconds_file"
	reason=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1 | cut -c1-160)
	case "$status" in
	0) echo "PASS $name (${seconds}s)"; return 0 ;;
	77) echo "SKIP $name: ${reason:-no reason given}"; return 77 ;;
	124|137) echo "FAIL $name: timed out after ${timeout_s}s (log: $log)"; return 1 ;;
	*) echo "FAIL $name: exit $status: ${reason:-no output} (log: $log)"; return 1 ;;
	esac
}

# The tests to run, as names, in the order they start (see Order above).
selected=()
for test in "${tests[@]}"; do
	name=${test#"$build"/}
	name=${name#"$root"/}
	[ -n "${TEST_FILTER:-}" ] && [[ "$name" != *"$TEST_FILTER"* ]] && continue
	if [ -n "${TEST_SKIP_PATTERN:-}" ] && [[ "$name" =~ $TEST_SKIP_PATTERN ]]; then
		continue
	fi
	selected+=("$name")
done
declare -A path_of=()
for test in "${tests[@]}"; do
	name=${test#"$build"/}
	path_of["${name#"$root"/}"]=$test
done
if [ -s "$order_file" ] && [ "${#selected[@]}" -gt 0 ]; then
	# Unknown tests get a huge key (first), then by seconds, longest first;
	# sort -s keeps the listed order among equals.
	mapfile -t selected < <(
		awk 'NR == FNR { if (NF == 2 && $1 ~ /^[0-9.]+$/) known[$2] = $1; next }
			{ print (($0 in known) ? known[$0] : 1e9) "\t" $0 }' \
			"$order_file" <(printf '%s\n' "${selected[@]}") |
		sort -s -t "$(printf '\t')" -k1,1gr | cut -f2-)
fi

passed=0 failed=0 skipped=0 running=0
# Counts the next test to finish (wait -n gives its status).
collect_one() {
	wait -n
	case $? in
	0) passed=$((passed + 1)) ;;
	77) skipped=$((skipped + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
	running=$((running - 1))
}

for name in "${selected[@]}"; do
	[ "$running" -ge "$jobs" ] && collect_one
	run_one "${path_of[$name]}" "$name" &
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	collect_one
done
# The next run's order: this run's seconds, and an earlier run's for the
# tests this one left out (a TEST_FILTER run keeps what it did not run).
{
	cat "$seconds_file"
	if [ -s "$build/test-seconds" ]; then
		awk 'NR == FNR { seen[$2] = 1; next } !($2 in seen)' "$seconds_file" "$build/test-seconds"
	fi
} >"$seconds_file.all" && mv "$seconds_file.all" "$build/test-seconds"

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ $((passed + failed + skipped)) -gt 0 ]
