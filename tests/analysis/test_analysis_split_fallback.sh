#!/usr/bin/env bash
# A stream file cut into slices (analysis/decode/stream_split.c) and what
# can go wrong around it. One trace whose events fill many 8 KiB packets of
# one file (the emitter's bulk mode pinned to one CPU); every case must give
# the very report one decoder gives, and leave TMPDIR (a private one) empty:
# - a damaged trace (one corrupt packet header): the checks' view and the
#   slices compose (the slices are cut from the view's copy of the usable
#   packets), the damage named once, a cut at the hole the skipped packet
#   left reporting the packets lost there as one graph does;
# - no room in TMPDIR for the slices (a 1 MiB tmpfs in a private mount
#   namespace, when unshare allows one): whole files instead, the plan says
#   why;
# - a copy that fails half-way (DNNTRACE_TEST_SLICE_COPY_FAILS: ENOSPC
#   after the slice's first packet; RLIMIT_FSIZE cannot stand in, the
#   report's own files are larger than the trace's): whole files instead,
#   the partial copy removed;
# - libbabeltrace2 aborting (metadata it cannot take) after the slices were
#   copied: one line, exit 2, the slices removed by the supervising parent.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

private_tmp=$work/tmp
mkdir -p "$private_tmp"
record --subbuf 8K "$work/bulk" "${pin[*]} '$emit' bulk 900 >/dev/null" || fail "recording failed"
bulk_stream=
for f in $(stream_files "$work/bulk"); do
	[ "$(stat -c %s "$f")" -gt 65536 ] && bulk_stream=$f
done
[ -n "$bulk_stream" ] || fail "bulk 900 filled no stream file past 8 packets"
stream_bytes=$(stat -c %s "$bulk_stream")

# analyze LABEL DECODERS [ENV...]: the report in $work/report-LABEL
analyze_as() {
	local label=$1 decoders=$2; shift 2
	rm -rf "$work/report"
	env TMPDIR="$private_tmp" DNNTRACE_DECODERS="$decoders" DNNTRACE_SLICE_MIN_BYTES=8192 \
		DNNTRACE_SPLIT_PLAN="$work/plan-$label" "$@" "$analyze" "$trace" -o "$work/report" \
		--timeline none >"$work/out-$label" 2>"$work/err-$label" ||
		fail "$label: analyze exited $?: $(head -n 3 "$work/err-$label")"
	[ -s "$work/err-$label" ] && fail "$label: stderr: $(head -n 3 "$work/err-$label")"
	rm -rf "$work/report-$label"
	mv "$work/report" "$work/report-$label"
	[ -z "$(ls -A "$private_tmp")" ] || fail "$label: left in TMPDIR: $(ls -A "$private_tmp")"
}
same_as_one() {   # LABEL
	diff -r "$work/report-one" "$work/report-$1" >"$work/diff" 2>&1 ||
		fail "$1: the report differs from one decoder's: $(head -n 5 "$work/diff")"
	cmp -s "$work/out-one" "$work/out-$1" || fail "$1: the summary on stdout differs"
}
sliced() {   # LABEL: the plan cut the bulk stream file
	grep -q "file $(basename "$bulk_stream") bytes [0-9]* slice 1 " "$work/plan-$1" ||
		fail "$1: the stream file was not cut: $(cat "$work/plan-$1")"
}

# the intact trace: one decoder, and the file in three slices
trace=$work/bulk
analyze_as one 1
analyze_as three 3
sliced three
same_as_one three

# no room for the slices: a 1 MiB TMPDIR
if unshare -rm true 2>/dev/null; then
	mkdir -p "$work/small"
	unshare -rm bash -c 'mount -t tmpfs -o size=1m none "$1" && shift &&
		env TMPDIR="$0" DNNTRACE_DECODERS=3 DNNTRACE_SLICE_MIN_BYTES=8192 \
		DNNTRACE_SPLIT_PLAN="$1" "$2" "$3" -o "$4" --timeline none >"$5" 2>"$6"; rc=$?
		[ -z "$(ls -A "$0")" ] || { echo "left in the tmpfs: $(ls -A "$0")" >>"$6"; rc=99; }
		exit $rc' "$work/small" "$work/small" "$work/plan-noroom" "$analyze" "$trace" \
		"$work/report-noroom" "$work/out-noroom" "$work/err-noroom" ||
		fail "no room: exit $?: $(head -n 3 "$work/err-noroom")"
	[ -s "$work/err-noroom" ] && fail "no room: stderr: $(head -n 3 "$work/err-noroom")"
	grep -qx "slices given up: no room for them" "$work/plan-noroom" ||
		fail "no room: the plan does not say the slices were given up: $(cat "$work/plan-noroom")"
	grep -q " slice " "$work/plan-noroom" && fail "no room: slices after all: $(cat "$work/plan-noroom")"
	same_as_one noroom
else
	echo "no private mount namespace here: the no-room case is not run"
fi

# a copy that fails half-way (injected: ENOSPC after the slice's first
# packet): whole files instead, the partial copy removed
analyze_as enospc 3 DNNTRACE_TEST_SLICE_COPY_FAILS=1
grep -qx "slices given up: No space left on device" "$work/plan-enospc" ||
	fail "ENOSPC: the plan does not say the copy failed: $(cat "$work/plan-enospc")"
grep -q " slice " "$work/plan-enospc" && fail "ENOSPC: slices after all: $(cat "$work/plan-enospc")"
same_as_one enospc

# one corrupt packet header (packet 1): the view holds the usable packets,
# and its copy is cut as an intact file would be
cp -r "$work/bulk" "$work/damaged"
damaged_stream=$work/damaged/${bulk_stream#"$work/bulk/"}
packet=$(( $(od -An -tu8 -j56 -N8 "$damaged_stream") / 8 ))
printf '\0\0\0\0' | dd of="$damaged_stream" bs=1 seek="$packet" conv=notrunc 2>/dev/null
trace=$work/damaged
analyze_as one 1
grep -q "^first damage: .*packet 1 at byte $packet: no packet magic" "$work/report-one/summary.txt" ||
	fail "the damage is not named: $(grep damage "$work/report-one/summary.txt")"
analyze_as damaged3 3
sliced damaged3
same_as_one damaged3
# cut exactly at the hole the skipped packet left (the view's packet 1
# follows a sequence gap): one graph reports packets discarded there
analyze_as damagedgap 2 DNNTRACE_SPLIT_PACKETS=1
grep -q " slice 1 packets 1-[0-9]* lost_events 0 lost_packets 1\$" "$work/plan-damagedgap" ||
	fail "the cut is not at the sequence gap: $(cat "$work/plan-damagedgap")"
same_as_one damagedgap

# libbabeltrace2 aborts after the slices were copied (a field declared
# twice in the metadata): one line, exit 2, TMPDIR empty
cp -r "$work/bulk" "$work/abort"
metadata=$(find "$work/abort" -type f -name metadata | head -n 1)
python3 - "$metadata" <<'PY' || fail "cannot rewrite the metadata"
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
(cd "$work" && ulimit -c 0
	TMPDIR="$private_tmp" DNNTRACE_DECODERS=3 DNNTRACE_SLICE_MIN_BYTES=8192 \
		DNNTRACE_SPLIT_PLAN="$work/plan-abort" \
		expect_exit 2 "libbabeltrace2 abort" "libbabeltrace2 crashed decoding it: SIGABRT" \
		"$work/abort" -o "$work/o") || exit 1
grep -q " slice 1 " "$work/plan-abort" || fail "abort: no slice was copied: $(cat "$work/plan-abort")"
[ -z "$(ls -A "$private_tmp")" ] || fail "abort: left in TMPDIR: $(ls -A "$private_tmp")"
exit 0
