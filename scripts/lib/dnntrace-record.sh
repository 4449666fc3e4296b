# shellcheck shell=bash
# dnntrace-record.sh: what makes one `dnntrace record` a recording of its
# command and nothing else, and accounts for every event it loses:
#   - isolation: each recording gets its own session daemon (a private
#     LTTNG_HOME; as root also a private /var/run/lttng in a mount namespace),
#     so only processes started by the command register with it;
#   - loss accounting: the status file record writes into the trace
#     (dnntrace-status, read by dnntrace analyze): how the recording ended,
#     LTTng's discarded events, write errors, and per process the events the
#     tracer handed to LTTng and the traced calls it could not record.
# Sourced by scripts/dnntrace after dnntrace-session.sh; it must never stop
# or kill a daemon the recording did not start, and never read or write
# outside the recording's own directories.

DNNTRACE_STATUS_FILE_NAME=dnntrace-status
# The placeholder the status file starts as: its blocks are allocated before
# the command runs, so the final status fits even on a disk the trace filled.
DNNTRACE_STATUS_RESERVE=65536

# dnntrace_private_rundir_possible: whether root can give this recording its
# own /var/run/lttng (a private mount namespace with a tmpfs there). The
# root session daemon's sockets are always in /var/run/lttng, whatever
# LTTNG_HOME says, so without it two root recordings share one daemon.
dnntrace_private_rundir_possible() {
	mkdir -p /var/run/lttng 2>/dev/null || return 1
	unshare --mount --propagation private \
		sh -c 'mount -t tmpfs -o mode=0755 tmpfs /var/run/lttng' >/dev/null 2>&1
}

# dnntrace_status_reserve FILE: creates FILE as the placeholder status (the
# recording has not ended: a record that is itself killed leaves it so),
# DNNTRACE_STATUS_RESERVE bytes long. Fails when FILE cannot be written.
dnntrace_status_reserve() {
	local file=$1
	{
		printf 'dnntrace-status 1\nstate recording\n'
		head -c "$DNNTRACE_STATUS_RESERVE" /dev/zero | tr '\0' '\n'
	} 2>/dev/null | head -c "$DNNTRACE_STATUS_RESERVE" >"$file" 2>/dev/null
	[ "$(stat -c %s "$file" 2>/dev/null)" = "$DNNTRACE_STATUS_RESERVE" ]
}

# dnntrace_status_write FILE TEXT: writes TEXT over the placeholder in place
# (no new blocks when TEXT fits), the rest stays blank lines. Bash's own
# I/O (<> opens without truncating): no helper program whose exit status
# could mislead (a sanitizer runtime preloaded into it, say).
dnntrace_status_write() {
	local file=$1 text=$2 fd pad
	# blank lines over whatever of the placeholder's text TEXT is shorter than
	printf -v pad '%*s' 64 ''
	text+=${pad// /$'\n'}
	if [ "${#text}" -lt "$DNNTRACE_STATUS_RESERVE" ]; then
		{ exec {fd}<>"$file"; } 2>/dev/null || return 1
		printf '%s' "$text" >&"$fd" 2>/dev/null
		local status=$?
		exec {fd}>&-
		return "$status"
	fi
	printf '%s' "$text" >"$file" 2>/dev/null
}

# dnntrace_session_discarded NAME: prints the events LTTng discarded in the
# session's channel (a stopped, not yet destroyed session), or nothing.
dnntrace_session_discarded() {
	timeout -k 5 30 lttng list "$1" 2>/dev/null |
		awk '/Discarded events:/ {n += $3; found = 1} END {if (found) print n}'
}

# dnntrace_write_errors LOG: prints the distinct write errors the session and
# consumer daemons logged (a full disk, a directory that became unwritable);
# their other messages (e.g. an open-files limit they may not raise) are not
# about the trace.
dnntrace_write_errors() {
	[ -f "$1" ] || return 0
	grep -o 'No space left on device\|Disk quota exceeded\|Read-only file system\|Permission denied\|Input/output error\|File too large' "$1" |
		sort -u | paste -sd, -
}

# dnntrace_event_counts DIR: prints one line per traced process, "PID
# EMITTED UNTRACED LATE", from the counter files the tracer keeps in DIR (see
# interceptors/core/event_count.c): events handed to LTTng, traced calls
# not recorded because no session listened yet (the process had not
# registered), and those made after tracing had ended for it (at its exit).
dnntrace_event_counts() {
	local file pid values
	for file in "$1"/*; do
		[ -f "$file" ] || continue
		pid=${file##*/}
		[[ "$pid" =~ ^[0-9]+$ ]] || continue
		values=$(od -An -v -t u8 -N 24 "$file" 2>/dev/null | tr -s ' \n' ' ')
		# shellcheck disable=SC2086 # three numbers
		set -- $values
		[ $# -eq 3 ] && echo "$pid $1 $2 $3"
	done | sort -n
}
