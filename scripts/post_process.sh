#!/usr/bin/env bash
# post_process.sh: analyzes a finished trace into a report directory and shows
# the summary (tf_tracer.sh style post-processing step):
#   scripts/post_process.sh TRACE_DIR OUT_DIR [--kernels A:B] [--name NAME] [--force]
# Only reads the trace; never alters it.
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
. "$here/lib/dnntrace-session.sh"
dnntrace_locate

[ $# -ge 2 ] || dnntrace_die "post_process: usage: post_process.sh TRACE_DIR OUT_DIR [--kernels A:B] [--name NAME] [--force]"
trace_dir=$1 out_dir=$2
shift 2
dnntrace_analyze "$trace_dir" -o "$out_dir" "$@"
