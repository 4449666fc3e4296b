#!/usr/bin/env bash
# Loss counted exactly once where a stream file is cut into slices
# (analysis/decode/stream_split.c). A --lossy recording with 4 KiB
# sub-buffers discards events (LTTng's count is in dnntrace-status); the
# largest stream file is cut (DNNTRACE_SPLIT_PACKETS) exactly before a
# packet whose events_discarded counter grew, read here from the packet
# contexts themselves. babeltrace2 sees no packet before a slice's first and
# would report that packet's whole counter: the split must report the
# growth since the packet before, once. The reports with one decoder and
# with the file cut in two and in three (and in two with the later
# slice's records spilled to a file, DNNTRACE_TEST_PIPE_CHUNKS=1) are
# byte-identical, the summary
# names LTTng's own discarded count, and the split's plan shows the cut
# where it was asked for, with the growth the packet contexts give.
set -u
# shellcheck source-path=SCRIPTDIR source=../hostile/lib.sh
. "$DNNTRACE_ROOT/tests/hostile/lib.sh"
DNNTRACE_RECORD_SUBBUF=4096 env "${tracer_env[@]}" "$DNNTRACE" record --lossy --simgpu \
	-o "$TEST_TMP/trace" -- "$FLOOD" 50000 >/dev/null 2>"$TEST_TMP/err" ||
	fail "record --lossy exited $?: $(cat "$TEST_TMP/err")"
discarded=$(status_value "$TEST_TMP/trace" discarded_events)
[ "${discarded:-0}" -gt 0 ] || skip "LTTng kept up with 4 KiB sub-buffers: nothing discarded"

# the largest stream file, its packets (LTTng-UST's 64-bit layout: packet
# size in bits at byte 56, events_discarded at 72 of each packet), and the
# first packet after the first whose counter grew
read -r file cut growth packets < <(python3 - "$TEST_TMP/trace" <<'EOF'
import os, struct, sys
best = None
for root, _, names in os.walk(sys.argv[1]):
    if os.path.exists(os.path.join(root, "metadata")):
        for n in names:
            p = os.path.join(root, n)
            if n != "metadata" and os.path.isfile(p):
                if best is None or os.path.getsize(p) > os.path.getsize(best):
                    best = p
data = open(best, "rb").read()
off, counters = 0, []
while off + 84 <= len(data):
    bits, = struct.unpack_from("<Q", data, off + 56)
    counters.append(struct.unpack_from("<Q", data, off + 72)[0])
    off += bits // 8
# a packet past the first whose counter grew since the one before
grew = [k for k in range(1, len(counters)) if counters[k] > counters[k - 1]]
k = grew[0] if grew else 0
print(os.path.basename(best), k, counters[k] - counters[k - 1] if k else 0, len(counters))
EOF
)
[ "${cut:-0}" -ge 1 ] || skip "no packet boundary with loss in $file ($packets packets)"
[ "$cut" -lt "$((packets - 1))" ] || skip "the only loss is at the last packet of $file"

run() {   # LABEL DECODERS [CUTS]
	rm -rf "$TEST_TMP/report"
	DNNTRACE_DECODERS=$2 DNNTRACE_SPLIT_PACKETS=${3:-} DNNTRACE_SPLIT_PLAN="$TEST_TMP/plan-$1" \
		"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$TEST_TMP/trace" -o "$TEST_TMP/report" \
		>"$TEST_TMP/out-$1" 2>"$TEST_TMP/err-$1" ||
		fail "$1: analyze exited $?: $(head -n 3 "$TEST_TMP/err-$1")"
	mv "$TEST_TMP/report" "$TEST_TMP/report-$1"
}
run one 1
run two 2 "$cut"
run three 3 "$cut,$((cut + 1))"
# the later slice's decoder runs ahead of the merge: its records spilled
# to a file and read back in their turn (one chunk in memory at most)
DNNTRACE_TEST_PIPE_CHUNKS=1 run spilled 2 "$cut"

want="incomplete: $discarded events lost ($discarded discarded by LTTng: --lossy and its buffers were full)"
[ "$(loss_line "$TEST_TMP/out-one")" = "$want" ] ||
	fail "one decoder says '$(loss_line "$TEST_TMP/out-one")', not '$want'"
grep -q "^decoder [01] file $file bytes [0-9]* slice 1 packets $cut-$packets lost_events $growth lost_packets 0\$" \
	"$TEST_TMP/plan-two" || fail "the plan does not cut $file before packet $cut with $growth lost: $(cat "$TEST_TMP/plan-two")"
grep -q "slice 1 packets $cut-$((cut + 1)) lost_events $growth " "$TEST_TMP/plan-three" &&
	grep -q "slice 2 packets $((cut + 1))-$packets " "$TEST_TMP/plan-three" ||
	fail "the plan does not cut $file in three: $(cat "$TEST_TMP/plan-three")"
spilled=$(awk '/^records spilled/ {print $3}' "$TEST_TMP/plan-spilled")
[ "${spilled:-0}" -gt 0 ] || fail "no record was spilled: $(cat "$TEST_TMP/plan-spilled")"
for n in two three spilled; do
	diff -r "$TEST_TMP/report-one" "$TEST_TMP/report-$n" >"$TEST_TMP/diff" 2>&1 ||
		fail "one decoder and the cut in $n differ: $(head -n 5 "$TEST_TMP/diff")"
	cmp -s "$TEST_TMP/out-one" "$TEST_TMP/out-$n" || fail "the summary on stdout differs with the cut in $n"
done
exit 0
