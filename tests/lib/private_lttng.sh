#!/usr/bin/env bash
# Runs a command against a private LTTng session daemon and stops that daemon
# afterwards, so tests never touch (or get confused by) a daemon that is
# already running on the machine, nor by each other when run in parallel.
#
#   tests/lib/private_lttng.sh CMD [ARGS...]
#
# As root the session daemon's sockets live in the global /var/run/lttng
# whatever LTTNG_HOME says, so the command runs in a private mount namespace
# with its own tmpfs there. As another user a private LTTNG_HOME is enough.
# Inside, LTTNG_HOME points to a fresh temporary directory. The exit status
# is CMD's. This script must never kill a daemon it did not start.
set -u

if [ "${DNNTRACE_PRIVATE_LTTNG:-}" != "inside" ]; then
	if [ "$(id -u)" = 0 ]; then
		mkdir -p /var/run/lttng
		exec unshare --mount --propagation private env DNNTRACE_PRIVATE_LTTNG=inside \
			bash -c 'mount -t tmpfs tmpfs /var/run/lttng && exec "$0" "$@"' "$0" "$@"
	fi
	export DNNTRACE_PRIVATE_LTTNG=inside
	exec "$0" "$@"
fi

# shellcheck source-path=SCRIPTDIR source=../../scripts/lib/dnntrace-session.sh
. "$(cd "$(dirname "$0")/../../scripts/lib" && pwd)/dnntrace-session.sh"

home=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-lttng.XXXXXX")
export LTTNG_HOME="$home"
lttng-sessiond --daemonize --quiet --no-kernel 2>/dev/null || {
	echo "private_lttng: could not start lttng-sessiond" >&2
	exit 1
}
if [ "$(id -u)" = 0 ]; then pidfile=/var/run/lttng/lttng-sessiond.pid
else pidfile="$home/.lttng/lttng-sessiond.pid"; fi

stop_daemon() {
	if [ -f "$pidfile" ]; then
		local pid
		pid=$(cat "$pidfile")
		kill "$pid" 2>/dev/null
		for _ in $(seq 50); do dnntrace_process_running "$pid" || break; sleep 0.1; done
		# A daemon whose consumer is stuck on a killed program's buffer
		# ignores SIGTERM: it and the consumers it started get SIGKILL.
		if dnntrace_process_running "$pid"; then
			local children child
			children=$(pgrep -P "$pid" 2>/dev/null)
			for child in $children; do children="$children $(pgrep -P "$child" 2>/dev/null)"; done
			# shellcheck disable=SC2086 # a word list of pids
			kill -KILL "$pid" $children 2>/dev/null
		fi
	fi
	rm -rf "$home"
}
# A TERM or INT (a test runner's timeout, Ctrl-C, which reach the command
# too) must not leave the daemon behind: stop it once the command has ended.
trap 'stop_daemon; exit 143' TERM
trap 'stop_daemon; exit 130' INT

"$@"
status=$?
stop_daemon
exit $status
