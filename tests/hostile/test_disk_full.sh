#!/usr/bin/env bash
# Loss accounting, a full disk: record onto a small tmpfs (in a private mount
# namespace; skipped where mounting is refused). 2 MiB: not even one 4 MiB
# packet fits, the trace is unusable. 6 MiB: part of the trace is there.
# Both: record says "No space left on device" and exits non-zero; the status
# (reserved before the run) says so; the summary says exactly how many
# events the trace lacks (2 MiB: all of them, and nothing is left; 6 MiB:
# the tracer's count minus babeltrace2's), naming the cause.
. "$DNNTRACE_ROOT/tests/hostile/lib.sh"
[ "$(id -u)" = 0 ] || skip "mounting a small filesystem needs root"
unshare --mount --propagation private true 2>/dev/null || skip "no private mount namespace"

inner='
	set -u
	disk=$1 size=$2
	mkdir -p "$disk"
	mount -t tmpfs -o size="$size" tmpfs "$disk" || exit 77
	shift 2
	"$@"'
for size in 2m 6m; do
	disk="$TEST_TMP/disk-$size"
	unshare --mount --propagation private bash -c "$inner" bash "$disk" "$size" bash -c '
		disk=$1; shift
		"$@" record --simgpu -o "$disk/trace" -- "$0" 100000 >"$disk.out" 2>"$disk.err"
		echo $? >"$disk.status"
		# the filesystem goes with the namespace: keep what the checks read
		mkdir -p "$disk.copy" && cp -a "$disk/trace" "$disk.copy/"' \
		"$FLOOD" "$disk" env "${tracer_env[@]}" "$DNNTRACE"
	case $? in 0) ;; 77) skip "mount -t tmpfs refused" ;; *) fail "$size: could not run record on a small filesystem" ;; esac
	status=$(cat "$disk.status")
	[ "$status" != 0 ] || fail "$size: record exited 0 on a full disk: $(cat "$disk.err")"
	grep -q '^dnntrace: trace incomplete: LTTng could not write it (No space left on device)' "$disk.err" ||
		fail "$size: record did not say the disk was full: $(cat "$disk.err")"
	trace="$disk.copy/trace"
	[ "$(status_value "$trace" write_errors)" = "No space left on device" ] ||
		fail "$size: the status file does not name the full disk: $(grep -v '^$' "$trace/dnntrace-status")"
	analyze "$trace" -o "$TEST_TMP/report-$size" >"$disk.analyze" 2>&1
	astatus=$?
	if [ "$size" = 2m ]; then
		# nothing readable: the report says so, and counts the loss
		emitted=$(status_emitted "$trace")
		[ "$astatus" = 0 ] || fail "2m: analyze exited $astatus: $(cat "$disk.analyze")"
		grep -qx 'no CUDA allocation, copy or launch is left in the trace' "$disk.analyze" ||
			fail "2m: $(cat "$disk.analyze")"
		want="incomplete: $emitted events lost ($emitted never written: LTTng could not write the trace (No space left on device))"
		[ "$(loss_line "$disk.analyze")" = "$want" ] ||
			fail "2m: summary says '$(loss_line "$disk.analyze")', not '$want'"
		continue
	fi
	[ "$astatus" = 0 ] || fail "$size: analyze exited $astatus: $(head -n 3 "$disk.analyze")"
	emitted=$(status_emitted "$trace")
	# babeltrace2 refuses a stream file cut inside a packet: count its
	# whole packets (record's channels have 4 MiB packets), index left out.
	whole="$TEST_TMP/whole-$size"
	cp -a "$trace" "$whole" && rm -rf "$whole"/ust/uid/*/64-bit/index
	for stream in "$whole"/ust/uid/*/64-bit/dnntrace_*; do
		bytes=$(stat -c %s "$stream")
		truncate -s $((bytes / 4194304 * 4194304)) "$stream"
	done
	seen=$(trace_event_count "$whole")
	[ "$seen" -gt 0 ] && [ "$seen" -lt "$emitted" ] ||
		fail "$size: expected part of the $emitted events in the trace, babeltrace2 reads $seen"
	want="incomplete: $((emitted - seen)) events lost ($((emitted - seen)) never written: LTTng could not write the trace (No space left on device))"
	[ "$(loss_line "$disk.analyze")" = "$want" ] ||
		fail "$size: summary says '$(loss_line "$disk.analyze")', not '$want'"
done
exit 0
