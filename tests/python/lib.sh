# shellcheck shell=bash
# lib.sh: what the Python helper's tests (tests/python/test_*.sh) add to
# tests/lib/common.sh: the python3 with PyTorch (Debian's python3-torch:
# /usr/bin/python3, or DNNTRACE_TEST_PYTHON) and the environment `dnntrace
# record --torch-names` gives Python. Must never start a global
# lttng-sessiond: tracing goes through tests/lib/private_lttng.sh.
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
TESTS_PYTHON="$DNNTRACE_ROOT/tests/python"
PYTHON_DIR="$DNNTRACE_ROOT/python"
SHIM_PYTHONPATH="$PYTHON_DIR:$PYTHON_DIR/dnntrace_torch/shim"
DNNTRACE="$DNNTRACE_ROOT/scripts/dnntrace"
python=${DNNTRACE_TEST_PYTHON:-/usr/bin/python3}
# The name these tests knew the scratch directory by.
scratch=$TEST_TMP

require_torch() {
	[ -x "$python" ] || skip "no $python"
	"$python" -c 'import torch' 2>/dev/null ||
		skip "$python cannot import torch (make deps installs python3-torch)"
}
