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
exit 0
