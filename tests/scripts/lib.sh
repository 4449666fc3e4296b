# shellcheck shell=bash
# lib.sh: what the tests of the shell tooling (tests/scripts/test_*.sh) add to
# tests/lib/common.sh: where the scripts are, and analyze without pictures.
# Must never start a global lttng-sessiond: tracing goes through
# tests/lib/private_lttng.sh.
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# analyze draws no pictures (seconds of matplotlib per call): the plot
# tests (tests/scripts/test_plot.sh) ask for them.
export DNNTRACE_PLOTS=0
SCRIPTS="$DNNTRACE_ROOT/scripts"
DNNTRACE="$SCRIPTS/dnntrace"
# The name these tests knew the scratch directory by.
scratch=$TEST_TMP
