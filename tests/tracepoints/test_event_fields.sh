#!/usr/bin/env bash
# The reader's event specs and the tracepoints cannot drift: both expand
# tracepoints/event_fields.h, and this test holds the specs the analyzer
# reads with (analysis/decode/event_specs.c) against the metadata of a trace that
# libdnntrace.so itself wrote (every enabled event is declared there, hit or
# not). Must never compare against a field list kept by hand.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/common.sh
. "$here/../lib/common.sh"
lister=$DNNTRACE_BUILD/tests/print_event_specs
require_built "$lister" "$TRACER"
"$lister" >"$TEST_TMP/specs" || fail "print_event_specs failed"
record_session "$TEST_TMP/trace" - - env "${asan_env[@]}" LD_PRELOAD="$tracer_preload" true ||
	fail "recording failed"
metadata=$(find "$TEST_TMP/trace" -name metadata | head -1)
[ -n "$metadata" ] || fail "the trace has no metadata"
babeltrace2 --output-format=ctf-metadata "$(dirname "$metadata")" >"$TEST_TMP/metadata" ||
	fail "babeltrace2 cannot print the metadata"
python3 "$here/check_event_fields.py" "$TEST_TMP/specs" "$TEST_TMP/metadata"
