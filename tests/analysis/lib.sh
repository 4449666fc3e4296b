# shellcheck shell=bash
# lib.sh: what the analysis script tests add to tests/lib/common.sh: the
# analyzer and the scripted emitter under test, record (the emitter recorded
# with the product's session recipe in a private session daemon, made again
# when a loaded machine spoiled a timed scenario), the byte-for-byte
# expectations and one-line-error checks they share, and the stream files of
# a trace recorded on one CPU. Skips the test (77) when LTTng is not
# installed. Must never start a global session daemon nor compare the
# analyzer's output with output of the analyzer itself.
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
require_command lttng lttng-sessiond

analyze="$DNNTRACE_BUILD/bin/dnntrace-analyze"
# ANALYSIS_EMITTER: another build of the emitter (old_formats.sh)
emit="${ANALYSIS_EMITTER:-$DNNTRACE_BUILD/tests/analysis_emit_scripted}"
[ -x "$analyze" ] && [ -x "$emit" ] || fail "build first ($analyze, $emit)"
# The name these tests knew the scratch directory by.
work=$TEST_TMP

# record [--subbuf SIZE] TRACE_DIR CMD...: records the shell command line
# CMD (run by bash -c, possibly several times: record_scripted) into
# TRACE_DIR; SIZE: small sub-buffers, so the trace has many packets.
#
# READER_TRACE_CACHE (set by test_analysis_reader_decoders.sh, which runs
# the reader tests once per decoder count): a directory that keeps each
# recording with the files CMD wrote into the scratch directory (the
# emitter's pid files), by TRACE_DIR's name and CMD with the scratch
# directory's path left out. The same recording asked for again (the next
# decoder count) is a copy of that one: the decoders then read the very
# same stream files, and no recording is made twice.
record() {
	local subbuf=()
	if [ "$1" = --subbuf ]; then subbuf=(--subbuf "$2"); shift 2; fi
	local trace=$1
	shift
	local cached= file
	if [ -n "${READER_TRACE_CACHE:-}" ]; then
		cached="$READER_TRACE_CACHE/$(printf '%s\n' "${subbuf[*]}" "${trace#"$work"}" "${*//"$work"/}" |
			md5sum | cut -c1-32)"
		if [ -d "$cached" ]; then
			cp -a "$cached/trace" "$trace" && cp -a "$cached/files/." "$work/" ||
				fail "cannot copy the kept recording $cached"
			return 0
		fi
	fi
	# The emitter may be an ASan build: leak reports are noise there.
	record_scripted "${subbuf[@]}" "$trace" - - \
		env ASAN_OPTIONS="$no_leak_asan_options" bash -c "$*" || return
	[ -n "$cached" ] || return 0
	mkdir -p "$cached.new/files" && cp -a "$trace" "$cached.new/trace" ||
		fail "cannot keep the recording in $cached"
	for file in $(grep -o "$work/[A-Za-z0-9_.-]*" <<<"$*" | sort -u); do
		[ -f "$file" ] && { cp -a "$file" "$cached.new/files/" || fail "cannot keep $file"; }
	done
	mv "$cached.new" "$cached" || fail "cannot keep the recording in $cached"
}

# expect FILE <<< expected content (byte for byte)
expect() {
	local file=$1
	cat >"$work/expected"
	cmp -s "$work/expected" "$file" || {
		diff "$work/expected" "$file" | head -20
		fail "$file differs from the expected content"; }
}

# expect_no_newline FILE <<< expected content: G10's period log ends
# without a newline.
expect_no_newline() {
	local file=$1
	printf '%s' "$(cat)" >"$work/expected"
	cmp -s "$work/expected" "$file" || {
		diff "$work/expected" "$file" | head -20
		fail "$file differs from the expected content"; }
}

# expect_exit CODE WHAT PATTERN ARGS...: the analyzer run on ARGS exits CODE
# with exactly one line on stderr, matching PATTERN.
expect_exit() {
	local code=$1 what=$2 pattern=$3; shift 3
	"$analyze" "$@" >"$work/stdout" 2>"$work/stderr"
	local rc=$?
	[ "$rc" = "$code" ] || fail "$what: exit $rc, expected $code ($(head -c 300 "$work/stderr"))"
	[ "$(wc -l <"$work/stderr")" = 1 ] ||
		fail "$what: stderr is not one line: $(head -c 600 "$work/stderr")"
	grep -q -- "$pattern" "$work/stderr" || fail "$what: stderr lacks '$pattern': $(cat "$work/stderr")"
}

# stream_files TRACE_DIR: the trace's stream files (the channel's name
# followed by the CPU), not their indexes, sorted.
stream_files() {
	find "$1" -type f -name "${DNNTRACE_CHANNEL}_*" ! -path '*/index/*' | sort
}

# content_size of a stream file's first packet (LTTng-UST's layout: bits at
# byte 48): more than the 84 bytes of header and context = it holds events
first_content() { echo $(( $(od -An -tu8 -j48 -N8 "$1") / 8 )); }

# record_on_one_cpu TRACE_DIR MODE: records the emitter's MODE pinned to one
# CPU, so every event goes to one stream file (LTTng's buffers are per CPU)
# and the others hold empty packets only. Sets metadata (its metadata file),
# streams_with_events and streams_without (stream files relative to
# TRACE_DIR), and stream (the first with events, a full path).
pin=()
command -v taskset >/dev/null && pin=(taskset -c "$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')")
record_on_one_cpu() {
	local trace=$1 mode=$2 f
	record "$trace" "${pin[*]} '$emit' $mode >/dev/null" || fail "recording failed"
	metadata=$(find "$trace" -type f -name metadata | head -n 1)
	streams_with_events=() streams_without=()
	for f in $(stream_files "$trace"); do
		if [ -s "$f" ] && [ "$(first_content "$f")" -gt 84 ]; then
			streams_with_events+=("${f#"$trace/"}")
		else
			streams_without+=("${f#"$trace/"}")
		fi
	done
	stream=$trace/${streams_with_events[0]:-}
	[ -f "$stream" ] && [ -n "$metadata" ] || fail "recorded trace has no stream/metadata"
}
