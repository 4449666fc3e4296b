# shellcheck shell=bash disable=SC2034 # its variables are for the tests that source it
# common.sh: what every test script shares, sourced by each of them (directly
# or through its folder's lib.sh, which adds only what is particular to that
# folder): a scratch directory removed on exit, fail/skip, require_command and
# require_built, the preload and environment an ASan-built tracer needs, and
# record_session, which records a command with the product's own LTTng
# session recipe (scripts/lib/dnntrace-session.sh) inside a private session
# daemon (tests/lib/private_lttng.sh). Must never start a global
# lttng-sessiond, kill a process it did not start, nor keep a private copy of
# the session recipe: tests record with exactly the product's channel.
set -u

: "${DNNTRACE_ROOT:?run through tests/run_tests.sh (DNNTRACE_ROOT unset)}"
: "${DNNTRACE_BUILD:?run through tests/run_tests.sh (DNNTRACE_BUILD unset)}"
export DNNTRACE_BUILD

PRIVATE_LTTNG="$DNNTRACE_ROOT/tests/lib/private_lttng.sh"
SESSION_LIB="$DNNTRACE_ROOT/scripts/lib/dnntrace-session.sh"
TRACER="$DNNTRACE_BUILD/lib/libdnntrace.so"
SIMGPU_LIB="$DNNTRACE_BUILD/simgpu/lib"
# Defines nothing but functions and DNNTRACE_CHANNEL (whose name the stream
# files of a recorded trace carry); it starts nothing by itself.
# shellcheck source=../../scripts/lib/dnntrace-session.sh
. "$SESSION_LIB"

# One scratch directory per test, named after it, so a leftover one (a test
# killed by SIGKILL) says whose it is.
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-$(basename "$0" .sh).XXXXXX") ||
	{ echo "FAIL: cannot create a scratch directory" >&2; exit 1; }
# A failing test (any exit but 0 and 77) leaves its scratch directory, with
# the trace and reports it failed on, in $TEST_KEEP_FAILED when that is set
# (tests/run_tests.sh sets BUILD_DIR/test-failed): a failure seen once under
# load is evidence that a rerun may not give again. Silent: the last line of
# the test's output stays the reason it failed.
keep_or_remove_scratch() {
	local status=$1
	if [ "$status" != 0 ] && [ "$status" != 77 ] && [ -n "${TEST_KEEP_FAILED:-}" ] &&
		mkdir -p "$TEST_KEEP_FAILED" 2>/dev/null &&
		mv "$TEST_TMP" "$TEST_KEEP_FAILED/" 2>/dev/null; then
		return
	fi
	rm -rf "$TEST_TMP"
}
trap 'keep_or_remove_scratch $?' EXIT

# record_isolation: what goes before `env ... dnntrace record ...` in a test
# so that the recording never meets the machine's own session daemon.
# `dnntrace record` starts a session daemon of its own for each recording
# (scripts/lib/dnntrace-record.sh): under a private LTTNG_HOME, and as root
# in a private mount namespace when unshare works. A private_lttng.sh around
# it then only starts and stops a second daemon nobody uses (about 0.7 s a
# recording, measured 2026-11-28), so it is left out; only where record
# would fall back to root's shared daemon (unshare refused) does the test
# still go through private_lttng.sh, which then fails as it always did.
# shellcheck source=../../scripts/lib/dnntrace-record.sh
. "$DNNTRACE_ROOT/scripts/lib/dnntrace-record.sh"
record_isolation=()
if [ "$(id -u)" = 0 ] && ! dnntrace_private_rundir_possible; then
	record_isolation=("$PRIVATE_LTTNG")
fi

# tests/run_tests.sh counts exit 1 as a failure and 77 as a skip; the last
# line of output is the reason it prints.
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

# require_command CMD...: skips the test when a tool it needs is not
# installed (the machine lacks it: not the product's failure).
require_command() {
	local command
	for command in "$@"; do
		command -v "$command" >/dev/null 2>&1 || skip "$command not installed"
	done
}

# require_built PATH...: fails the test when something `make all` builds is
# missing (a build that lacks it is broken).
require_built() {
	local path
	for path in "$@"; do
		[ -e "$path" ] || fail "missing $path (build with make all)"
	done
}

# An ASan(+UBSan) build of the tracer needs the ASan runtime first in
# LD_PRELOAD of every process it is preloaded into (the UBSan runtime needs
# no such place). Leak checking is off there: LTTng-UST keeps per-thread
# state until exit by design, so its leak reports are noise.
#   asan_runtime    libasan.so when the tracer is an ASan build, else empty
#   asan_env        env assignments such a process needs (empty otherwise);
#                   tests skip what ASan cannot do by testing its length
#   tracer_preload  the LD_PRELOAD value running a program under the tracer
#   no_leak_asan_options  ASAN_OPTIONS with leak checks off, for programs
#                   that may be ASan builds themselves (emit_scripted)
no_leak_asan_options="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
asan_runtime=
asan_env=()
tracer_preload=$TRACER
if readelf -d "$TRACER" 2>/dev/null | grep -q libasan; then
	asan_runtime=$(${CC:-gcc} -print-file-name=libasan.so)
	asan_env=("ASAN_OPTIONS=$no_leak_asan_options")
	tracer_preload="$asan_runtime $TRACER"
fi

# record_session [--subbuf SIZE] TRACE_DIR OUT ERR CMD...: records CMD into
# TRACE_DIR with dnntrace_create_session's blocking channel (SIZE: smaller
# sub-buffers, for a trace of many packets) in a private session daemon;
# CMD's stdout goes to OUT and its stderr to ERR ("-": the caller's own).
# Returns CMD's status, 90 when the session did not start. The session is
# torn down by dnntrace_destroy_session, whose status is left out on purpose:
# the tests check the trace itself.
record_session() {
	local subbuf=
	if [ "$1" = --subbuf ]; then subbuf=$2; shift 2; fi
	local trace=$1 out=$2 err=$3
	shift 3
	"$PRIVATE_LTTNG" bash -c '
		. "$1" || exit 90
		trace=$2 out=$3 err=$4 subbuf=$5; shift 5
		dnntrace_create_session test "$trace" 0 "dnntrace_*" "$subbuf" || exit 90
		# Opened once the session runs, so its own messages stay on the
		# caller'"'"'s stderr and CMD'"'"'s output is all OUT and ERR hold.
		if [ "$out" = - ]; then exec 3>&1; else exec 3>"$out"; fi
		if [ "$err" = - ]; then exec 4>&2; else exec 4>"$err"; fi
		LTTNG_UST_ALLOW_BLOCKING=1 "$@" >&3 2>&4 3>&- 4>&-
		rc=$?
		exec 3>&- 4>&-
		dnntrace_destroy_session test
		exit $rc' record_session "$SESSION_LIB" "$trace" "$out" "$err" "$subbuf" "$@"
}

# record_scripted [--subbuf SIZE] TRACE_DIR OUT ERR CMD...: record_session
# for tests/analysis/emit_scripted, whose timed scenarios exit 75 when a
# loaded machine descheduled the emitter past one of its windows: that
# recording is thrown away and made again (up to 30 times), so a test only
# ever sees the scenario it asked for. Returns CMD's last status.
record_scripted() {
	local subbuf=()
	if [ "$1" = --subbuf ]; then subbuf=(--subbuf "$2"); shift 2; fi
	local trace=$1 attempt rc=75
	for attempt in $(seq 30); do
		rm -rf "$trace"
		record_session "${subbuf[@]}" "$@"
		rc=$?
		[ "$rc" = 75 ] || return "$rc"
		echo "record_scripted: attempt $attempt descheduled, recording again" >&2
	done
	return "$rc"
}

# events TRACE_DIR: the trace as babeltrace2 text, failing on any discarded
# event (babeltrace2 warns about those on stderr).
events() {
	local text
	text=$(babeltrace2 "$1" 2>"$TEST_TMP/bt.err") ||
		fail "babeltrace2 cannot read $1: $(head -n 2 "$TEST_TMP/bt.err")"
	grep -qi discarded "$TEST_TMP/bt.err" && fail "events discarded: $(head -n 2 "$TEST_TMP/bt.err")"
	printf '%s\n' "$text"
}
