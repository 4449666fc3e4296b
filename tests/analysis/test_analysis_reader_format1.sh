#!/usr/bin/env bash
# Old traces still read: the reader tests on format 1 traces (launches
# carrying the kernel's name string, status without format; and what
# format 2 changed too: see test_analysis_reader_format2.sh).
set -u
# shellcheck source=old_formats.sh
. "$(dirname "$0")/old_formats.sh"
reader_tests_in_format 1
