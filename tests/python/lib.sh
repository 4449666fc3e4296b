# shellcheck shell=bash
# lib.sh: shared by the Python helper's tests (tests/python/test_*.sh): the
# python3 with PyTorch (Debian's python3-torch: /usr/bin/python3, or
# DNNTRACE_TEST_PYTHON), a scratch directory removed on exit, fail/skip, and
# the environment `dnntrace record --torch-names` gives Python. Must never
# start a global lttng-sessiond: tracing goes through tests/lib/private_lttng.sh.
set -u
: "${DNNTRACE_ROOT:?run through tests/run_tests.sh (DNNTRACE_ROOT unset)}"
: "${DNNTRACE_BUILD:?run through tests/run_tests.sh (DNNTRACE_BUILD unset)}"
export DNNTRACE_BUILD
TESTS_PYTHON="$DNNTRACE_ROOT/tests/python"
PYTHON_DIR="$DNNTRACE_ROOT/python"
SHIM_PYTHONPATH="$PYTHON_DIR:$PYTHON_DIR/dnntrace_torch/shim"
DNNTRACE="$DNNTRACE_ROOT/scripts/dnntrace"
PRIVATE_LTTNG="$DNNTRACE_ROOT/tests/lib/private_lttng.sh"
python=${DNNTRACE_TEST_PYTHON:-/usr/bin/python3}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-python.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

require_torch() {
	[ -x "$python" ] || skip "no $python"
	"$python" -c 'import torch' 2>/dev/null ||
		skip "$python cannot import torch (make deps installs python3-torch)"
}
