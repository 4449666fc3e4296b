#!/usr/bin/env bash
# `dnntrace record` with no session daemon running starts one, traces, and
# stops the daemon it started (and only that one) at the end.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
[ -f "$DNNTRACE_BUILD/lib/libdnntrace.so" ] || fail "missing libdnntrace.so (build with make all)"
command -v lttng-sessiond >/dev/null || skip "no lttng-sessiond"

# An isolated world with no daemon: as root a private /var/run/lttng (mount
# namespace), otherwise a private LTTNG_HOME.
scenario='
	export LTTNG_HOME=$1/home; mkdir -p "$LTTNG_HOME"
	lttng list >/dev/null 2>&1 && { echo "a daemon already runs here" >&2; exit 1; }
	"$0" record -o "$1/trace" -- sh -c "exit 5" 2>"$1/record.err"; status=$?
	[ "$status" = 5 ] || { echo "record exited $status: $(cat "$1/record.err")" >&2; exit 1; }
	lttng list >/dev/null 2>&1 && { echo "daemon still running after record" >&2; exit 1; }
	exit 0'
if [ "$(id -u)" = 0 ]; then
	mkdir -p /var/run/lttng
	unshare --mount --propagation private bash -c \
		'mount -t tmpfs tmpfs /var/run/lttng && bash -c "$0" "$@"' "$scenario" "$DNNTRACE" "$scratch" ||
		fail "record did not manage its own session daemon"
else
	bash -c "$scenario" "$DNNTRACE" "$scratch" || fail "record did not manage its own session daemon"
fi
exit 0
