#!/usr/bin/env bash
# Old traces still read: the reader tests on format 2 traces (launches with
# function ids but also their handle and geometry, alloc and free with the
# kind and stream, library calls with their name strings, GPU kernel
# records with the name string).
set -u
# shellcheck source=old_formats.sh
. "$(dirname "$0")/old_formats.sh"
reader_tests_in_format 2
