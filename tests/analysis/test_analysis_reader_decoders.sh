#!/usr/bin/env bash
# The stream files decoded by several babeltrace2 graphs at once give what
# one graph gives: the four reader tests (test_analysis_reader*.sh, each
# against values known by construction) run with one decoder
# (DNNTRACE_DECODERS=1: one graph, as before issue 21) and with one decoder
# per stream file (DNNTRACE_DECODERS=8: more decoders than files, capped at
# the files). Without the variable the analyzer runs as many as it has
# CPUs, which the reader tests themselves exercise. Each recording is made
# once, in the first round, and the second decodes a copy of it
# (READER_TRACE_CACHE, tests/analysis/lib.sh): both decoder counts read the
# same stream files.
set -u
here=$(cd "$(dirname "$0")" && pwd)
status=0
READER_TRACE_CACHE=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-reader-traces.XXXXXX") ||
	{ echo "FAIL: cannot create a directory for the recordings"; exit 1; }
export READER_TRACE_CACHE
trap 'rm -rf "$READER_TRACE_CACHE"' EXIT
for decoders in 1 8; do
	for test in test_analysis_reader test_analysis_reader_lib test_analysis_reader_nvtx \
			test_analysis_reader_driver; do
		DNNTRACE_DECODERS=$decoders bash "$here/$test.sh"; rc=$?
		case $rc in
		0) echo "decoders $decoders: $test passed" ;;
		77) echo "decoders $decoders: $test skipped"; exit 77 ;;
		*) echo "FAIL: decoders $decoders: $test exited $rc"; status=1 ;;
		esac
	done
done
exit $status
