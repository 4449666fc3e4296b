#!/usr/bin/env bash
# start_tracing.sh: starts a manual dnntrace session (tf_tracer.sh style):
#   scripts/start_tracing.sh [--lossy] -o TRACE_DIR
#   source scripts/set_env.sh [--simgpu]; run programs...; scripts/stop_tracing.sh
# Remembers the session for stop_tracing.sh. Several manual sessions share
# one session daemon, started by the first, under a lock (dnntrace-session.sh,
# dnntrace_manual_lock): two starts at the same moment both succeed. It must
# never run or trace the user's program itself.
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
. "$here/lib/dnntrace-session.sh"
dnntrace_locate

lossy=0 out=
while [ $# -gt 0 ]; do
	case "$1" in
	--lossy) lossy=1 ;;
	-o) [ $# -ge 2 ] || dnntrace_die "start_tracing: -o needs a directory"; out=$2; shift ;;
	-h|--help) echo "usage: start_tracing.sh [--lossy] -o TRACE_DIR"; exit 0 ;;
	*) dnntrace_die "start_tracing: unknown argument $1 (usage: start_tracing.sh [--lossy] -o TRACE_DIR)" ;;
	esac
	shift
done
[ -n "$out" ] || dnntrace_die "start_tracing: missing -o TRACE_DIR"
dnntrace_require_lttng
command -v flock >/dev/null 2>&1 || dnntrace_die "start_tracing: flock not found (install util-linux)"
state=$(dnntrace_state_file)
dnntrace_manual_lock
[ -e "$state" ] && dnntrace_die "start_tracing: a session is already active ($state); run stop_tracing.sh first"
dnntrace_check_trace_dir "$out"
mkdir -p "$out" || dnntrace_die "start_tracing: cannot create $out"
trace_dir=$(cd "$out" && pwd -P)

dnntrace_manual_ensure_sessiond || exit 1
session=$(dnntrace_new_session_name)
if ! dnntrace_create_session "$session" "$trace_dir" "$lossy"; then
	dnntrace_manual_release_sessiond
	exit 1
fi
mkdir -p "$(dirname "$state")"
printf 'session=%q\ntrace_dir=%q\n' "$session" "$trace_dir" >"$state"
dnntrace_manual_unlock
echo "dnntrace: session $session recording to $trace_dir" >&2
lossy_flag=
[ "$lossy" = 1 ] && lossy_flag=" --lossy"
echo "dnntrace: now run: source $here/set_env.sh$lossy_flag; then your program; then $here/stop_tracing.sh" >&2
