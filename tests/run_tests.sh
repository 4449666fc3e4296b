#!/usr/bin/env bash
# run_tests.sh BUILD_DIR: runs every compiled test BUILD_DIR/tests/test_* and
# every script test tests/*/test_*.sh and simgpu/test_*.sh, each under a
# time limit, prints one PASS/FAIL/SKIP line per test and a closing `N passed, N failed, N skipped`
# line; exits non-zero when any test failed. Must never hide a failure (a test
# that crashes, hangs or prints nothing still counts as failed).
#
# Environment: TEST_TIMEOUT (seconds per test, default 120: a hang detector,
# with room for a loaded machine), TEST_FILTER (run
# only tests whose name contains it), TEST_SKIP_PATTERN (extended regexp of
# test names to leave out, e.g. for the sanitizer pass), TEST_LOG_DIR (where
# each test's output is kept; default BUILD_DIR/test-logs).
set -u

[ $# -eq 1 ] || { echo "usage: run_tests.sh BUILD_DIR" >&2; exit 2; }
[ -d "$1" ] || { echo "run_tests: build directory $1 not found (run make first)" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd -P)
build=$(cd "$1" && pwd -P)
export DNNTRACE_ROOT="$root" DNNTRACE_BUILD="$build"
timeout_s=${TEST_TIMEOUT:-120}
log_dir=${TEST_LOG_DIR:-$build/test-logs}
mkdir -p "$log_dir"

tests=()
for program in "$build"/tests/test_*; do
	[ -f "$program" ] && [ -x "$program" ] && tests+=("$program")
done
for script in "$root"/tests/*/test_*.sh "$root"/simgpu/test_*.sh; do
	[ -f "$script" ] && tests+=("$script")
done

passed=0 failed=0 skipped=0
for test in "${tests[@]}"; do
	name=${test#"$build"/}
	name=${name#"$root"/}
	[ -n "${TEST_FILTER:-}" ] && [[ "$name" != *"$TEST_FILTER"* ]] && continue
	if [ -n "${TEST_SKIP_PATTERN:-}" ] && [[ "$name" =~ $TEST_SKIP_PATTERN ]]; then
		continue
	fi
	log="$log_dir/$(echo "$name" | tr '/' '_').log"
	start=$(date +%s.%N)
	if [ -x "$test" ]; then
		(cd "$build" && timeout -k 5 "$timeout_s" "$test") >"$log" 2>&1 </dev/null
	else
		(cd "$build" && timeout -k 5 "$timeout_s" bash "$test") >"$log" 2>&1 </dev/null
	fi
	status=$?
	seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
	reason=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1 | cut -c1-160)
	case "$status" in
	0) passed=$((passed + 1)); echo "PASS $name (${seconds}s)" ;;
	77) skipped=$((skipped + 1)); echo "SKIP $name: ${reason:-no reason given}" ;;
	124|137) failed=$((failed + 1)); echo "FAIL $name: timed out after ${timeout_s}s (log: $log)" ;;
	*) failed=$((failed + 1))
	   echo "FAIL $name: exit $status: ${reason:-no output} (log: $log)" ;;
	esac
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ $((passed + failed + skipped)) -gt 0 ]
