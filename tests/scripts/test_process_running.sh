#!/usr/bin/env bash
# dnntrace_process_running (scripts/lib/dnntrace-session.sh), which every
# session-daemon stop waits on: a running process runs, an exited one that
# nobody has reaped yet (a zombie, as a daemonized lttng-sessiond is until
# init reaps it) does not, although kill -0 still succeeds on it, and a pid
# that is gone does not.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib/dnntrace-session.sh
. "$SCRIPTS/lib/dnntrace-session.sh"
[ -r /proc/self/status ] || skip "no /proc: a zombie cannot be told apart"

# A parent that never reaps: `sleep 30` exec'd over the shell that started
# `true`, so `true` stays a zombie until the parent ends.
bash -c 'true & exec sleep 30' &
parent=$!
trap 'kill "$parent" 2>/dev/null' EXIT
zombie=
for _ in $(seq 100); do
	zombie=$(pgrep -P "$parent" 2>/dev/null | head -n 1)
	[ -n "$zombie" ] && grep -q '^State:[[:space:]]*Z' "/proc/$zombie/status" 2>/dev/null && break
	zombie=
	sleep 0.05
done
[ -n "$zombie" ] || fail "no zombie child appeared under pid $parent"
kill -0 "$zombie" 2>/dev/null || fail "kill -0 fails on the zombie: the case this guards is not reproduced"

dnntrace_process_running "$parent" || fail "a sleeping process is said not to run"
dnntrace_process_running "$zombie" && fail "a zombie is said to run"
kill "$parent"
wait "$parent" 2>/dev/null
dnntrace_process_running "$parent" && fail "a process that was killed and reaped is said to run"
exit 0
