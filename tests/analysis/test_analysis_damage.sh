#!/usr/bin/env bash
# Damage that leaves part of a trace readable: a removed stream file without
# events, a duplicated stream file, one corrupt packet header among many.
# Each is analyzed (exit 0, nothing on stderr) and the summary names the
# damage and says "analysis incomplete"; what the damage did not touch is
# as in the intact trace. Then what libbabeltrace2 2.0 cannot survive
# itself: metadata it aborts on, and a decoder making no progress (the
# watchdog): one line on stderr, exit 2, no core file. Must never accept a
# damaged trace analyzed without saying so.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

record_on_one_cpu "$work/good" main
"$analyze" "$work/good" -o "$work/intact" >"$work/intact.out" 2>&1 ||
	fail "the intact trace does not analyze"
grep -q "analysis incomplete" "$work/intact.out" && fail "the intact trace is called incomplete"

# a removed stream file without events: the same analysis, marked incomplete
expect_incomplete() {   # WHAT DIR DAMAGE_PATTERN
	"$analyze" "$2" -o "$work/o" >"$work/stdout" 2>"$work/stderr" ||
		fail "$1: exit $?: $(head -c 300 "$work/stderr")"
	[ -s "$work/stderr" ] && fail "$1: stderr: $(head -c 300 "$work/stderr")"
	grep -q "^trace damage: .*$3" "$work/o/summary.txt" &&
		grep -q "^analysis incomplete: the trace is damaged" "$work/o/summary.txt" ||
		fail "$1: summary lacks the damage: $(cat "$work/o/summary.txt")"
	rm -rf "$work/o"
}
if [ "${#streams_without[@]}" -gt 0 ]; then
	cp -r "$work/good" "$work/removed_quiet"
	rm "$work/removed_quiet/${streams_without[0]}"
	expect_incomplete "removed stream file without events" "$work/removed_quiet" \
		"1 stream file missing"
	"$analyze" "$work/removed_quiet" -o "$work/o" | grep -v -e '^trace damage' \
		-e '^first damage' -e '^analysis incomplete' >"$work/removed.out"
	rm -rf "$work/o"
	cmp -s "$work/removed.out" "$work/intact.out" ||
		fail "a stream file without events changed the analysis: $(diff "$work/intact.out" "$work/removed.out")"
fi

# a flipped bit that takes an event class out of its provider
# ("dnntrace_api:launch" -> "dnntrac._api:launch"): not a tracepoint name,
# so the metadata is damaged; its events are counted, never silently lost
cp -r "$work/good" "$work/renamed"
renamed_metadata=$(find "$work/renamed" -name metadata | head -n 1)
grep -q 'name = "dnntrace_api:launch";' "$renamed_metadata" || fail "no launch event class in the metadata"
sed -i 's/name = "dnntrace_api:launch";/name = "dnntrac._api:launch";/' "$renamed_metadata"
expect_incomplete "event class renamed by a bit flip" "$work/renamed" \
	"events* of corrupt event classes ignored"

# a duplicated stream file is read once
cp -r "$work/good" "$work/dup"
cp "$work/dup/${streams_with_events[0]}" "$work/dup/${streams_with_events[0]}_copy"
expect_incomplete "duplicated stream file" "$work/dup" "1 duplicated stream file skipped"
"$analyze" "$work/dup" -o "$work/o" | grep -v -e '^trace damage' -e '^first damage' \
	-e '^analysis incomplete' >"$work/dup.out"
rm -rf "$work/o"
cmp -s "$work/dup.out" "$work/intact.out" || fail "a duplicated stream file was read twice"

# one corrupt packet header of many: skipped, the packets after it still read
record --subbuf 8K "$work/bulk" "${pin[*]} '$emit' bulk 900 >/dev/null" ||
	fail "recording failed"
bulk_stream=
for f in $(stream_files "$work/bulk"); do
	[ "$(stat -c %s "$f")" -gt 8192 ] && bulk_stream=$f
done
[ -n "$bulk_stream" ] || fail "bulk 900 filled no more than one packet"
"$analyze" "$work/bulk" -o "$work/bulk_intact" >/dev/null 2>&1 ||
	fail "the intact bulk trace does not analyze"
packet=$(( $(od -An -tu8 -j56 -N8 "$bulk_stream") / 8 ))
printf '\0\0\0\0' | dd of="$bulk_stream" bs=1 seek="$packet" conv=notrunc 2>/dev/null
expect_incomplete "one corrupt packet header" "$work/bulk" "1 corrupt packet skipped"
"$analyze" "$work/bulk" -o "$work/o" >/dev/null 2>&1
grep -q "^first damage: .*packet 1 at byte $packet: no packet magic" "$work/o/summary.txt" ||
	fail "the damage does not name packet 1: $(grep damage "$work/o/summary.txt")"
# the packets after it were read: the last kernel is there (its events
# are in the last packet), and the lost events changed the tables
tail -n 1 "$work/bulk_intact/kernels.csv" >"$work/last_kernel"
grep -qxFf "$work/last_kernel" "$work/o/kernels.csv" ||
	fail "the packets after the corrupt one were not read"
cmp -s "$work/o/tensors.csv" "$work/bulk_intact/tensors.csv" &&
	cmp -s "$work/o/kernels.csv" "$work/bulk_intact/kernels.csv" &&
	fail "a skipped packet changed nothing"
rm -rf "$work/o"

# metadata libbabeltrace2 aborts on (a field declared twice, balanced and
# complete): one line, exit 2, no core file
cp -r "$work/good" "$work/abort"
python3 - "$work/abort/${metadata#"$work/good/"}" <<'PY' || fail "cannot rewrite the metadata"
import struct, sys
path = sys.argv[1]
data, text, off = open(path, "rb").read(), b"", 0
while off < len(data):
    content, size = struct.unpack_from("<II", data, off + 24)
    text += data[off + 37:off + content // 8]
    off += size // 8
line = b"\t\tinteger { size = 32; align = 8; signed = 0; encoding = none; base = 10; } _correlation_id;\n"
assert line in text
open(path, "wb").write(text.replace(line, line + line, 1))
PY
(cd "$work" && ulimit -c unlimited 2>/dev/null
	expect_exit 2 "libbabeltrace2 abort" "libbabeltrace2 crashed decoding it: SIGABRT" "$work/abort" -o "$work/o")
[ -n "$(find "$work" -maxdepth 1 -name 'core*')" ] && fail "a core file was written"

# the watchdog: the first open of a stream file delayed 5 s (strace's
# syscall fault injection), no progress for 1 s: one line, exit 2
if command -v strace >/dev/null; then
	start=$(date +%s)
	strace -f -qq -o /dev/null -P "$stream" -e trace=openat \
		-e inject=openat:delay_enter=5000000:when=1 \
		"$analyze" "$work/good" -o "$work/o" --watchdog-s 1 >"$work/stdout" 2>"$work/stderr"
	rc=$?
	grep -v '^strace: ' "$work/stderr" >"$work/stderr.analyzer"
	[ "$rc" = 2 ] && [ "$(wc -l <"$work/stderr.analyzer")" = 1 ] &&
		grep -q "no progress decoding the trace for 1 s" "$work/stderr.analyzer" ||
		fail "watchdog: exit $rc: $(cat "$work/stderr")"
	rm -rf "$work/o"
fi
echo "damage analyzed and named; libbabeltrace2 aborts and stalls contained"
