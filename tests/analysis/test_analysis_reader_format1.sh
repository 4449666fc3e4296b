#!/usr/bin/env bash
# Old traces still read: the four reader tests (test_analysis_reader*.sh),
# each on the same scenarios written in trace format 1 (launches carrying
# the kernel's name string, status without format: what tracers before
# format 2 wrote) by analysis_emit_scripted_format1, with the very same
# expected outputs. Must never relax an expectation for format 1.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${DNNTRACE_BUILD:?}"
ANALYSIS_EMITTER="$DNNTRACE_BUILD/tests/analysis_emit_scripted_format1"
[ -x "$ANALYSIS_EMITTER" ] || { echo "FAIL: build first ($ANALYSIS_EMITTER)"; exit 1; }
export ANALYSIS_EMITTER
status=0
for test in test_analysis_reader test_analysis_reader_lib test_analysis_reader_nvtx \
		test_analysis_reader_driver; do
	bash "$here/$test.sh"; rc=$?
	case $rc in
	0) echo "format 1: $test passed" ;;
	77) echo "format 1: $test skipped"; exit 77 ;;
	*) echo "FAIL: format 1: $test exited $rc"; status=1 ;;
	esac
done
exit $status
