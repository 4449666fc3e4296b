#!/usr/bin/env bash
# record_traces.sh BUILD_DIR OUT_DIR [SET]: records the fuzz harness's input
# traces with the project's own workloads into OUT_DIR/<name>/, each through
# a private LTTng session daemon (tests/lib/private_lttng.sh).
#   SET full (default): emitter `main` (tiny), emitter `nvtx` (two threads,
#       strings), emitter `bulk 3000` (8 KiB packets: dozens), mlp_train recorded by
#       `dnntrace record --simgpu` (the real tracer)
#   SET smoke: the emitter's `main` and `bulk 900` (8 KiB packets) only
# Prints the trace directories, one a line. Must never touch a session daemon
# it did not start (private_lttng.sh starts its own).
set -u
[ $# -ge 2 ] || { echo "usage: record_traces.sh BUILD_DIR OUT_DIR [full|smoke]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd -P)
build=$(cd "$1" && pwd -P)
out=$2
set_name=${3:-full}
mkdir -p "$out"
emit="$build/tests/analysis_emit_scripted"
[ -x "$emit" ] || { echo "record_traces: build first ($emit)" >&2; exit 2; }
# The test library gives record_session: the product's session recipe
# (scripts/lib/dnntrace-session.sh) in a private session daemon.
export DNNTRACE_ROOT=$root DNNTRACE_BUILD=$build
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$root/tests/lib/common.sh"
require_command lttng

record_emitter() {   # NAME SUBBUF ARGS...
	local trace="$out/$1" subbuf=$2; shift 2
	# an ASan build of the emitter: LTTng-UST keeps per-thread state until
	# exit by design, so leak reports there are noise. Recorded again while
	# a loaded machine deschedules it past a timed window (exit 75).
	record_scripted --subbuf "$subbuf" "$trace" /dev/null - \
		env ASAN_OPTIONS="$no_leak_asan_options" "$emit" "$@" ||
		{ echo "record_traces: recording $emit $* failed" >&2; exit 1; }
	echo "$trace"
}

record_emitter main 512K main
if [ "$set_name" = smoke ]; then
	record_emitter bulk 8K bulk 900
	exit 0
fi
record_emitter nvtx 512K nvtx
record_emitter bulk 8K bulk 3000
workload="$build/workloads/mlp_train"
[ -x "$workload" ] || { echo "record_traces: build first ($workload)" >&2; exit 2; }
rm -rf "$out/mlp_train"
SIMGPU_TIME_SCALE=1 "$root/tests/lib/private_lttng.sh" "$root/scripts/dnntrace" \
	record --simgpu -o "$out/mlp_train" -- "$workload" "$out/mlp_train.truth" \
	>/dev/null 2>"$out/mlp_train.err" ||
	{ echo "record_traces: recording mlp_train failed: $(tail -n 2 "$out/mlp_train.err")" >&2; exit 1; }
echo "$out/mlp_train"
