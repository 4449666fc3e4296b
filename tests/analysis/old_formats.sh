# shellcheck shell=bash
# old_formats.sh: what test_analysis_reader_format1.sh and _format2.sh
# share: reader_tests_in_format N runs the four reader tests
# (test_analysis_reader*.sh), each on the same scenarios written in trace
# format N (tracepoints/README.md, "Format versions") by
# analysis_emit_scripted_formatN, with the very same expected outputs. Must
# never relax an expectation for an old format.
reader_tests_in_format() {
	local format=$1 here test rc status=0
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	: "${DNNTRACE_BUILD:?}"
	ANALYSIS_EMITTER="$DNNTRACE_BUILD/tests/analysis_emit_scripted_format$format"
	[ -x "$ANALYSIS_EMITTER" ] || { echo "FAIL: build first ($ANALYSIS_EMITTER)"; exit 1; }
	export ANALYSIS_EMITTER
	for test in test_analysis_reader test_analysis_reader_lib test_analysis_reader_nvtx \
			test_analysis_reader_driver; do
		bash "$here/$test.sh"; rc=$?
		case $rc in
		0) echo "format $format: $test passed" ;;
		77) echo "format $format: $test skipped"; exit 77 ;;
		*) echo "FAIL: format $format: $test exited $rc"; status=1 ;;
		esac
	done
	exit $status
}
