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
pid=$(dnntrace_start_sessiond) || { rm -rf "$home"; exit 1; }

# SIGKILL after 5 s, not record's 10: that is as long as a test runner's
# timeout (-k 5) leaves this script after its TERM.
stop_daemon() {
	dnntrace_stop_sessiond "$pid" 5
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
