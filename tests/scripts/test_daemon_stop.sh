#!/usr/bin/env bash
# How the session recipe (scripts/lib/dnntrace-session.sh) stops a session
# daemon, on stand-in processes. dnntrace_process_running, which every stop
# waits on: a running process runs, an exited one that nobody has reaped yet
# (a zombie, as a daemonized lttng-sessiond is until init reaps it) does
# not, although kill -0 still succeeds on it, and a pid that is gone does
# not. dnntrace_stop_sessiond on a process that ignores SIGTERM (as a daemon
# whose consumer is stuck does), under set -u as its callers run: it and its
# child get SIGKILL after the seconds given, and it says so.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib/dnntrace-session.sh
. "$SCRIPTS/lib/dnntrace-session.sh"
[ -r /proc/self/status ] || skip "no /proc: a zombie cannot be told apart"

# A parent that never reaps: its child exits at once and stays a zombie
# until the parent ends; the parent names the child in a file. (Looking for
# any zombie child is racy: a shell, pyenv's python3 shim among them, reaps
# its own short-lived children, and this test once caught one of those.)
pid_file=$TEST_TMP/zombie.pid
python3 -c 'import os, sys, time
child = os.fork()
if child == 0:
    os._exit(0)
with open(sys.argv[1] + ".new", "w") as f:
    f.write("%d\n" % child)
os.rename(sys.argv[1] + ".new", sys.argv[1])
time.sleep(60)' "$pid_file" &
parent=$!
trap 'kill "$parent" 2>/dev/null' EXIT
zombie=
for _ in $(seq 200); do
	[ -s "$pid_file" ] && zombie=$(cat "$pid_file") &&
		grep -q '^State:[[:space:]]*Z' "/proc/$zombie/status" 2>/dev/null && break
	zombie=
	sleep 0.05
done
[ -n "$zombie" ] || fail "the child of pid $parent did not become a zombie within 10 s"
kill -0 "$zombie" 2>/dev/null || fail "kill -0 fails on the zombie: the case this guards is not reproduced"

dnntrace_process_running "$parent" || fail "a sleeping process is said not to run"
dnntrace_process_running "$zombie" && fail "a zombie is said to run"
kill "$parent"
wait "$parent" 2>/dev/null
dnntrace_process_running "$parent" && fail "a process that was killed and reaped is said to run"

# A stubborn "daemon" with a child (its consumer), the child's pid in a file.
child_file=$TEST_TMP/child.pid
bash -c 'trap "" TERM; sleep 60 & echo $! >"$1.new"; mv "$1.new" "$1"; wait' _ "$child_file" &
stubborn=$!
for _ in $(seq 200); do [ -s "$child_file" ] && break; sleep 0.05; done
[ -s "$child_file" ] || fail "the stand-in daemon did not start its child"
child=$(cat "$child_file")
dnntrace_stop_sessiond "$stubborn" 1 2>"$TEST_TMP/stop.err" ||
	fail "dnntrace_stop_sessiond failed: $(cat "$TEST_TMP/stop.err")"
wait "$stubborn" 2>/dev/null
dnntrace_process_running "$stubborn" && fail "the process that ignores SIGTERM still runs"
for _ in $(seq 100); do dnntrace_process_running "$child" || break; sleep 0.05; done
dnntrace_process_running "$child" && fail "its child still runs"
[ "$(cat "$TEST_TMP/stop.err")" = "dnntrace: lttng-sessiond $stubborn did not stop; killed it" ] ||
	fail "stop said: $(cat "$TEST_TMP/stop.err")"
exit 0
