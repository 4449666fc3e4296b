# shellcheck shell=bash
# lib.sh: shared by the tests of the shell tooling (tests/scripts/test_*.sh):
# a scratch directory removed on exit and fail/skip helpers. Must never start
# a global lttng-sessiond: tracing goes through tests/lib/private_lttng.sh.
set -u
: "${DNNTRACE_ROOT:?run through tests/run_tests.sh (DNNTRACE_ROOT unset)}"
: "${DNNTRACE_BUILD:?run through tests/run_tests.sh (DNNTRACE_BUILD unset)}"
export DNNTRACE_BUILD
# analyze draws no pictures (seconds of matplotlib per call): the plot
# tests (tests/scripts/test_plot.sh) ask for them.
export DNNTRACE_PLOTS=0
SCRIPTS="$DNNTRACE_ROOT/scripts"
DNNTRACE="$SCRIPTS/dnntrace"
PRIVATE_LTTNG="$DNNTRACE_ROOT/tests/lib/private_lttng.sh"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-scripts.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
