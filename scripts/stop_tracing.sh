#!/usr/bin/env bash
# stop_tracing.sh: ends the manual session start_tracing.sh began: flushes and
# destroys it, stops the session daemon a manual session started once no
# session is left on it (under start_tracing.sh's lock), and says where the
# trace is. It must never touch any other session.
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
. "$here/lib/dnntrace-session.sh"
dnntrace_locate

[ $# -eq 0 ] || dnntrace_die "stop_tracing: unexpected argument $1 (usage: stop_tracing.sh)"
state=$(dnntrace_state_file)
[ -f "$state" ] || dnntrace_die "stop_tracing: no active session (no $state)"
session= trace_dir=
# shellcheck disable=SC1090
. "$state"
[ -n "$session" ] || dnntrace_die "stop_tracing: $state names no session"
dnntrace_manual_lock
dnntrace_destroy_session "$session"
dnntrace_manual_release_sessiond
rm -f "$state"
dnntrace_manual_unlock
echo "dnntrace: trace written to $trace_dir" >&2
echo "dnntrace: analyze it with: $here/post_process.sh $trace_dir REPORT_DIR" >&2
