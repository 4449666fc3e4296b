# shellcheck shell=bash
# lib.sh: what the benchmark scripts (run_bench.sh, count_instructions.sh,
# each run as SCRIPT [BUILD_DIR]) share, sourced first: the script run
# again inside a private session daemon (tests/lib/private_lttng.sh), `top`
# and `build`, the tracer located, a scratch directory removed on exit, the
# simulated GPU's libraries, LTTng's libc wrapper, and traced. Must never
# start a global session daemon nor record with another channel than
# `dnntrace record`'s.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
build=$(cd "${1:-$top/build}" && pwd -P)

if [ "${DNNTRACE_PRIVATE_LTTNG:-}" != inside ]; then
	exec "$top/tests/lib/private_lttng.sh" "$0" "$build"
fi

DNNTRACE_BUILD=$build
# shellcheck source=../scripts/lib/dnntrace-session.sh
. "$top/scripts/lib/dnntrace-session.sh"
dnntrace_locate

work=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

export SIMGPU_TIME_SCALE=0 # host overhead only: never wait for simulated GPU time
sim="$build/simgpu/lib"
# awk reads all of ldconfig's output: an early exit would kill it with SIGPIPE (pipefail).
libc_wrapper=$(ldconfig -p | awk '/liblttng-ust-libc-wrapper.so.1 / && !found {found = $NF} END {print found}')
[ -n "$libc_wrapper" ] || { echo "bench: liblttng-ust-libc-wrapper.so.1 not found" >&2; exit 1; }

# traced EVENTS CMD...: runs CMD while a session records EVENTS into a
# throw-away trace, with exactly the channel `dnntrace record` uses.
session_count=0
traced() {
	local events=$1; shift
	session_count=$((session_count + 1))
	local name="bench-$$-$session_count"
	dnntrace_create_session "$name" "$work/trace-$session_count" 0 "$events" >&2
	LTTNG_UST_ALLOW_BLOCKING=1 "$@"
	local rc=$?
	dnntrace_destroy_session "$name"
	rm -rf "$work/trace-$session_count"
	return $rc
}
