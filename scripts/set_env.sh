#!/usr/bin/env bash
# set_env.sh: sets, in the current shell, the environment a program traced in
# a manual session needs (the tracer preloaded, blocking buffers, one device
# allocation per tensor):
#   source scripts/set_env.sh [--simgpu] [--lossy] [--allocator=MODE] [--torch-names]
#                             [--gpu-records=MODE]
# (MODEs as for dnntrace record; --keep-allocator is --allocator=keep)
# Run instead of sourced, it prints the exports. Sourced with no arguments
# inside a script, bash hands it the script's own arguments: `set --` first.
# Must never exit the caller's shell: all the work happens in a subshell.
__dnntrace_exports=$(
	__here=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd -P)
	. "$__here/lib/dnntrace-session.sh"
	dnntrace_locate
	simgpu=0 lossy=0 allocator=async torch_names=0 gpu_records=
	for arg in "$@"; do
		case "$arg" in
		--simgpu) simgpu=1 ;;
		--lossy) lossy=1 ;;
		--keep-allocator) allocator=keep ;;
		--allocator=*) allocator=$(dnntrace_allocator_mode "${arg#--allocator=}") || exit 1 ;;
		--torch-names) torch_names=1 ;;
		--gpu-records=*) gpu_records=$(dnntrace_gpu_records_mode "${arg#--gpu-records=}") || exit 1 ;;
		*) dnntrace_die "set_env: unknown argument $arg (usage: set_env.sh [--simgpu] [--lossy] [--allocator=async|no-caching|keep] [--torch-names] [--gpu-records=work|kernels|full|off])" ;;
		esac
	done
	dnntrace_require_lib
	[ "$torch_names" = 1 ] && dnntrace_require_torch_names
	dnntrace_env_exports "$simgpu" "$lossy" "$allocator" "$torch_names"
	[ -z "$gpu_records" ] || echo "export DNNTRACE_GPU_RECORDS=$gpu_records"
)
__dnntrace_status=$?
if [ "${BASH_SOURCE[0]:-$0}" = "$0" ]; then
	[ "$__dnntrace_status" = 0 ] && printf '%s\n' "$__dnntrace_exports"
	exit "$__dnntrace_status"
fi
[ "$__dnntrace_status" = 0 ] && eval "$__dnntrace_exports"
unset __dnntrace_exports
return "$__dnntrace_status"
