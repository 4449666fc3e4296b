# shellcheck shell=bash
# dnntrace-session.sh: the shell functions every dnntrace script shares
# (dnntrace, start_tracing.sh, stop_tracing.sh, set_env.sh, post_process.sh):
# where the library and analyzer are, the LTTng session recipe, and the
# environment a traced program needs. Sourced, never executed; it must never
# start or stop anything by itself, nor kill a session daemon it did not start.

DNNTRACE_CHANNEL=dnntrace
DNNTRACE_STATE_FILE_NAME=.dnntrace-session

dnntrace_die() {
	echo "dnntrace: $*" >&2
	exit 1
}

# Sets DNNTRACE_LIB, DNNTRACE_ANALYZER, DNNTRACE_SIMGPU_LIBDIR,
# DNNTRACE_PYTHON_DIR (holds the dnntrace_torch package) and DNNTRACE_SCRIPTS
# from where this file lives: the source tree
# (scripts/lib/ beside a Makefile; outputs in $DNNTRACE_BUILD or build/) or an
# installed prefix (PREFIX/share/dnntrace/scripts/lib/).
dnntrace_locate() {
	local here
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
	DNNTRACE_SCRIPTS=$(dirname "$here")
	local top
	top=$(dirname "$DNNTRACE_SCRIPTS")
	if [ -f "$top/Makefile" ] && [ -d "$top/tracepoints" ]; then
		local build="${DNNTRACE_BUILD:-$top/build}"
		case "$build" in /*) ;; *) build="$top/$build" ;; esac
		DNNTRACE_LIB="$build/lib/libdnntrace.so"
		DNNTRACE_ANALYZER="$build/bin/dnntrace-analyze"
		DNNTRACE_SIMGPU_LIBDIR="$build/simgpu/lib"
		DNNTRACE_PYTHON_DIR="$top/python"
	else
		local prefix
		prefix=$(cd "$DNNTRACE_SCRIPTS/../../.." && pwd -P)
		DNNTRACE_LIB="$prefix/lib/dnntrace/libdnntrace.so"
		DNNTRACE_ANALYZER="$prefix/bin/dnntrace-analyze"
		DNNTRACE_SIMGPU_LIBDIR="$prefix/lib/dnntrace/simgpu"
		DNNTRACE_PYTHON_DIR="$prefix/share/dnntrace/python"
	fi
}

dnntrace_require_lib() {
	[ -f "$DNNTRACE_LIB" ] ||
		dnntrace_die "tracer library not found at $DNNTRACE_LIB (run make)"
}

dnntrace_require_torch_names() {
	[ -f "$DNNTRACE_PYTHON_DIR/dnntrace_torch/shim/sitecustomize.py" ] ||
		dnntrace_die "--torch-names: Python helper not found in $DNNTRACE_PYTHON_DIR"
}

dnntrace_require_lttng() {
	command -v lttng >/dev/null 2>&1 ||
		dnntrace_die "lttng not found (install lttng-tools: make deps)"
}

# A session daemon answers when `lttng list` succeeds.
dnntrace_sessiond_running() {
	lttng list >/dev/null 2>&1
}

dnntrace_sessiond_pidfile() {
	if [ "$(id -u)" = 0 ]; then
		echo /var/run/lttng/lttng-sessiond.pid
	else
		echo "${LTTNG_HOME:-$HOME}/.lttng/lttng-sessiond.pid"
	fi
}

# dnntrace_start_sessiond [LOG_FILE]: starts a session daemon and prints its
# pid (the caller stops it later). With LOG_FILE, the daemon and its consumer
# daemons write their errors there (how record learns that LTTng could not
# write the trace: a full disk, an unwritable directory).
dnntrace_start_sessiond() {
	local log=${1:-}
	command -v lttng-sessiond >/dev/null 2>&1 ||
		dnntrace_die "lttng-sessiond not found (install lttng-tools: make deps)"
	if [ -n "$log" ]; then
		# --background keeps stderr (--daemonize sends it to /dev/null).
		lttng-sessiond --background --no-kernel >>"$log" 2>&1 ||
			dnntrace_die "could not start lttng-sessiond: $(tail -n 1 "$log" 2>/dev/null)"
	else
		lttng-sessiond --daemonize --quiet --no-kernel >/dev/null 2>&1 ||
			dnntrace_die "could not start lttng-sessiond"
	fi
	local pidfile
	pidfile=$(dnntrace_sessiond_pidfile)
	[ -s "$pidfile" ] || dnntrace_die "lttng-sessiond started but wrote no $pidfile"
	cat "$pidfile"
}

# Whether process PID still runs. A daemon that has exited stays a zombie
# until its parent reaps it (init, for a --daemonize'd one), and kill -0
# still succeeds on a zombie: a container's init may reap only every second
# or two, which made every stop wait that long for a daemon already gone.
dnntrace_process_running() {
	local state
	kill -0 "$1" 2>/dev/null || return 1
	state=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null)
	[ "$state" != Z ]
}

# dnntrace_stop_sessiond PID [SECONDS]: stops the session daemon with this
# pid (one this script started). A daemon whose consumer is stuck on a dead
# process's buffer (see dnntrace_destroy_session) ignores SIGTERM: after
# SECONDS (default 10) it and the processes it started (its consumer
# daemons) get SIGKILL.
dnntrace_stop_sessiond() {
	local pid=$1 seconds=${2:-10}
	[ -n "$pid" ] || return 0
	kill "$pid" 2>/dev/null || return 0
	local _
	for _ in $(seq $((seconds * 10))); do
		dnntrace_process_running "$pid" || return 0
		sleep 0.1
	done
	local children= grandchildren= child
	children=$(pgrep -P "$pid" 2>/dev/null)
	for child in $children; do
		grandchildren="$grandchildren $(pgrep -P "$child" 2>/dev/null)"
	done
	# shellcheck disable=SC2086 # word lists of pids
	kill -KILL "$pid" $children $grandchildren 2>/dev/null
	echo "dnntrace: lttng-sessiond $pid did not stop; killed it" >&2
}

dnntrace_new_session_name() {
	echo "dnntrace-$(date +%Y%m%d-%H%M%S)-$$-$RANDOM"
}

# TRACE_DIR must be absent or empty: never mix two traces in one directory.
dnntrace_check_trace_dir() {
	local dir=$1
	[ -n "$dir" ] || dnntrace_die "missing -o TRACE_DIR"
	if [ -e "$dir" ]; then
		[ -d "$dir" ] || dnntrace_die "$dir exists and is not a directory"
		[ -z "$(ls -A "$dir")" ] ||
			dnntrace_die "trace directory $dir is not empty (choose a new one)"
	fi
}

# dnntrace_relay_url HOST[:PORT[:DATA_PORT]]: prints the lttng URL of an
# lttng-relayd (lttng-create(1): net://HOST:CONTROL_PORT:DATA_PORT). The
# relayd's defaults are 5342 and 5343; a given PORT's data port is PORT+1.
dnntrace_relay_url() {
	local spec=$1 host ctrl='' data='' rest
	host=${spec%%:*}
	rest=${spec#"$host"}
	rest=${rest#:}
	if [ -n "$rest" ]; then
		ctrl=${rest%%:*}
		[ "$ctrl" != "$rest" ] && data=${rest#*:}
	fi
	[[ "$host" =~ ^[A-Za-z0-9._-]+$ ]] ||
		dnntrace_die "record: --relay needs HOST[:PORT[:DATA_PORT]] (not '$spec')"
	local port
	for port in "${ctrl:-5342}" "${data:-1}"; do
		[[ "$port" =~ ^[0-9]{1,5}$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] ||
			dnntrace_die "record: --relay $spec: bad port '$port'"
	done
	[ -n "$ctrl" ] || ctrl=5342
	[ -n "$data" ] || data=$((ctrl + 1))
	[ "$data" -le 65535 ] || dnntrace_die "record: --relay $spec: bad port '$data'"
	echo "net://$host:$ctrl:$data"
}

# With --relay, -o names the trace below the relayd's HOSTNAME directory: a
# relative name (empty: the session's name).
dnntrace_check_relay_name() {
	local name=$1
	[ -z "$name" ] && return 0
	[[ "$name" =~ ^[A-Za-z0-9._+-]+(/[A-Za-z0-9._+-]+)*$ ]] &&
		[[ ! "/$name/" =~ /\.\.?/ ]] ||
		dnntrace_die "record: with --relay, -o takes a relative name of letters, digits and ._+-/ (not '$name')"
}

# dnntrace_create_session NAME TRACE_DIR LOSSY(0|1) [EVENTS [SUBBUF_SIZE]]:
# creates, configures and starts the session. Blocking channel unless LOSSY:
# the traced program then waits for buffer space instead of dropping events.
# EVENTS (default dnntrace_*) lets the benchmarks record other providers with
# exactly the same channel; SUBBUF_SIZE (default 4M) lets the tests ask for
# small sub-buffers, so a short run still writes many packets. TRACE_DIR may
# be a net:// URL (dnntrace_relay_url).
dnntrace_create_session() {
	local name=$1 dir=$2 lossy=$3 events=${4:-dnntrace_*} subbuf=${5:-4M} err
	local blocking=(--blocking-timeout=inf) where=(--output="$dir")
	[ "$lossy" = 1 ] && blocking=()
	case "$dir" in net://*) where=(--set-url="$dir") ;; esac
	err=$(lttng create "$name" "${where[@]}" 2>&1 >/dev/null) ||
		{ echo "dnntrace: lttng create failed: ${err##*Error: }" >&2; return 1; }
	err=$( { lttng enable-channel --userspace --session="$name" \
			--subbuf-size="$subbuf" --num-subbuf=8 "${blocking[@]}" "$DNNTRACE_CHANNEL" &&
		lttng enable-event --userspace --session="$name" \
			--channel="$DNNTRACE_CHANNEL" "$events" &&
		lttng add-context --userspace --session="$name" \
			--channel="$DNNTRACE_CHANNEL" -t vpid -t vtid -t procname &&
		lttng start "$name"; } 2>&1 >/dev/null) ||
		{ echo "dnntrace: configuring session $name failed: ${err##*Error: }" >&2
		  lttng destroy "$name" >/dev/null 2>&1; return 1; }
}

# Stops (flushing every buffer to disk) and destroys the session, never
# waiting more than DNNTRACE_TEARDOWN_TIMEOUT seconds (default 60) a step.
# LTTng 2.13 waits forever when a traced process was killed (SIGKILL, or
# exit() from another thread) in the middle of writing an event: that
# per-CPU buffer can never be completed, its events never reach the disk,
# and `lttng destroy` never returns, though the session is gone. Returns 2
# then, after saying so. dnntrace_destroy_session NAME stopped: the caller
# has already run (or tried) `lttng stop` (another wait would only add to it).
dnntrace_destroy_session() {
	local name=$1 limit=${DNNTRACE_TEARDOWN_TIMEOUT:-60} status
	[ "${2:-}" = stopped ] || timeout -k 5 "$limit" lttng stop "$name" >/dev/null 2>&1
	timeout -k 5 "$limit" lttng destroy "$name" >/dev/null 2>&1
	status=$?
	case "$status" in
	0) return 0 ;;
	124|137)
		echo "dnntrace: LTTng did not finish writing the trace in ${limit}s: a traced" \
			"process was killed while writing an event, and the events still in the" \
			"buffers of that CPU (or all CPUs) are lost" >&2
		# Not destroyed after all: leave no session behind.
		if timeout -k 5 10 lttng list 2>/dev/null | grep -q "^ *[0-9]*) $name "; then
			timeout -k 5 10 lttng destroy --no-wait "$name" >/dev/null 2>&1
		fi
		return 2 ;;
	*) echo "dnntrace: could not destroy LTTng session $name" >&2
	   return 1 ;;
	esac
}

# dnntrace_allocator_mode MODE: checks an --allocator value (async,
# no-caching, keep) and prints it; 0 and 1 are the older KEEP_ALLOCATOR flag.
dnntrace_allocator_mode() {
	case "$1" in
	async|no-caching|keep) echo "$1" ;;
	""|0) echo async ;;
	1) echo keep ;;
	*) dnntrace_die "--allocator must be async, no-caching or keep (not '$1')" ;;
	esac
}

# dnntrace_gpu_records_mode MODE: checks a --gpu-records value (off, kernels,
# work, full: tracepoints/gpu_records.h, DNNTRACE_GPU_RECORDS) and prints it.
dnntrace_gpu_records_mode() {
	case "$1" in
	off|kernels|work|full) echo "$1" ;;
	*) dnntrace_die "--gpu-records must be work, kernels, full or off (not '$1')" ;;
	esac
}

# dnntrace_torch_alloc_conf CONF: prints PyTorch's allocator settings CONF
# (comma-separated key:value) with backend:cudaMallocAsync appended; returns
# 1 and prints CONF unchanged when CONF already names a backend.
dnntrace_torch_alloc_conf() {
	local conf=$1 item key
	while [[ "$conf" == *, || "$conf" == *" " ]]; do conf=${conf%?}; done
	local IFS=,
	for item in $conf; do
		key=${item%%:*}
		key=${key//[[:space:]]/}
		if [ "$key" = backend ]; then
			printf '%s' "$1"
			return 1
		fi
	done
	printf '%s' "${conf:+$conf,}backend:cudaMallocAsync"
}

# dnntrace_find_ust_fork: prints the path of liblttng-ust-fork.so.1 (part
# of liblttng-ust), or fails when this system has none. First beside the
# liblttng-ust.so.1 the tracer library loads (an LTTng installed in /opt, a
# Spack or conda prefix, keeps its fork wrapper there, and it must match that
# liblttng-ust), then in the system's library directories.
dnntrace_find_ust_fork() {
	local dir ust beside=
	# awk reads all of ldd's output: an early exit would kill it with SIGPIPE.
	ust=$(ldd "$DNNTRACE_LIB" 2>/dev/null |
		awk '$1 == "liblttng-ust.so.1" && $3 ~ /^\// && !found {found = $3} END {print found}')
	[ -n "$ust" ] && beside=$(cd "$(dirname "$ust")" 2>/dev/null && pwd -P)
	for dir in ${beside:+"$beside"} /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu \
		/usr/lib64 /usr/lib /usr/local/lib; do
		[ -f "$dir/liblttng-ust-fork.so.1" ] &&
			{ printf '%s' "$dir/liblttng-ust-fork.so.1"; return 0; }
	done
	return 1
}

# dnntrace_env_exports SIMGPU LOSSY ALLOCATOR [TORCH_NAMES]: prints the
# `export` lines a traced program needs (eval'd by dnntrace record, printed by
# `dnntrace env` and set_env.sh). ALLOCATOR: see dnntrace_allocator_mode.
dnntrace_env_exports() {
	local simgpu=$1 lossy=$2 allocator torch_names=${4:-0}
	allocator=$(dnntrace_allocator_mode "$3") || exit 1
	local preload="$DNNTRACE_LIB" fork_lib
	# LTTng-UST's fork wrapper: a child forked after the parent traced
	# events is traced as its own process (its vpid and buffers), as
	# Python's multiprocessing and data loaders fork (lttng-ust(3)).
	if fork_lib=$(dnntrace_find_ust_fork); then
		preload="$preload $fork_lib"
	else
		echo "dnntrace: warning: liblttng-ust-fork.so.1 not found (beside the" \
			"liblttng-ust.so.1 the tracer loads, nor in the system's library" \
			"directories): a process forked after tracing began is traced under" \
			"its parent's pid" >&2
	fi
	# A sanitizer runtime must stay first in LD_PRELOAD.
	case "${LD_PRELOAD:-}" in
	"") ;;
	*libasan*|*libclang_rt.asan*)
		local first=${LD_PRELOAD%%[ :]*} rest=${LD_PRELOAD#*[ :]}
		[ "$rest" = "$LD_PRELOAD" ] && rest=
		preload="$first $preload${rest:+ $rest}" ;;
	*) preload="$preload $LD_PRELOAD" ;;
	esac
	printf 'export LD_PRELOAD=%q\n' "$preload"
	# NVTX 3 (header-only, in every library using it) loads its injection
	# library from this variable only: the tracer turns ranges into events.
	printf 'export NVTX_INJECTION64_PATH=%q\n' "$DNNTRACE_LIB"
	if [ "$torch_names" = 1 ]; then
		# Python imports shim/sitecustomize.py at startup, which activates
		# dnntrace_torch once the program imports torch (and runs the
		# sitecustomize it shadows). Only the traced command sees this path.
		printf 'export PYTHONPATH=%q\n' \
			"$DNNTRACE_PYTHON_DIR:$DNNTRACE_PYTHON_DIR/dnntrace_torch/shim${PYTHONPATH:+:$PYTHONPATH}"
	fi
	if [ "$simgpu" = 1 ]; then
		printf 'export LD_LIBRARY_PATH=%q\n' \
			"$DNNTRACE_SIMGPU_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	fi
	[ "$lossy" = 1 ] || echo 'export LTTNG_UST_ALLOW_BLOCKING=1'
	[ "$allocator" = keep ] && return 0
	if [ "$allocator" = async ]; then
		# PyTorch keeps its cache in the driver's pool: every tensor is a
		# stream-ordered cudaMallocAsync / cudaFreeAsync, so each tensor is
		# a traced object at close to the caching allocator's speed. The
		# user's other settings stay; a backend they chose wins.
		local var conf
		for var in PYTORCH_CUDA_ALLOC_CONF PYTORCH_ALLOC_CONF; do
			# Newer PyTorch reads PYTORCH_ALLOC_CONF: set it only where
			# the user did, so both agree.
			[ "$var" = PYTORCH_ALLOC_CONF ] && [ -z "${PYTORCH_ALLOC_CONF:-}" ] && continue
			if conf=$(dnntrace_torch_alloc_conf "${!var:-}"); then
				printf 'export %s=%q\n' "$var" "$conf"
			else
				echo "dnntrace: $var='${!var}' already chooses a backend: left" \
					"as is (per-tensor lifetimes need backend:cudaMallocAsync" \
					"or --allocator=no-caching)" >&2
			fi
		done
	else
		# One cudaMalloc per tensor, so each tensor is a traced object.
		echo 'export PYTORCH_NO_CUDA_MEMORY_CACHING=1'
	fi
	# MXNet has no stream-ordered pool: its naive pool in both modes.
	echo 'export MXNET_GPU_MEM_POOL_TYPE=Naive'
	echo 'export MXNET_ENGINE_TYPE=NaiveEngine'
	# TensorFlow allocates through the driver's stream-ordered pools here
	# (cuMemAllocFromPoolAsync), not cudaMalloc: see field-notes.md.
	echo 'export TF_GPU_ALLOCATOR=cuda_malloc_async'
}

# Manual sessions (start_tracing.sh / stop_tracing.sh) share one session
# daemon: the user's (LTTNG_HOME), or root's. Starting it and creating a
# session, and destroying a session and stopping the daemon once no session
# is left on it, happen under one lock (beside the daemon's pid file; root's
# is the one record takes to start root's shared daemon), so two starts at
# the same moment never both start a daemon, and a stop never takes the
# daemon from under another session. The daemon a manual session started
# is named in DAEMON_OWNER (its pid), whichever session started it.
DNNTRACE_MANUAL_DAEMON_FILE=.dnntrace-manual-daemon

dnntrace_manual_dir() {
	dirname "$(dnntrace_sessiond_pidfile)"
}

# dnntrace_manual_lock: takes the lock on file descriptor 8 (released by
# dnntrace_manual_unlock, or when the script exits).
dnntrace_manual_lock() {
	local dir
	dir=$(dnntrace_manual_dir)
	mkdir -p "$dir" 2>/dev/null
	{ exec 8>>"$dir/.dnntrace-start.lock"; } 2>/dev/null ||
		dnntrace_die "cannot open the lock $dir/.dnntrace-start.lock"
	flock 8 || dnntrace_die "cannot take the lock $dir/.dnntrace-start.lock"
}

dnntrace_manual_unlock() {
	flock -u 8
	exec 8>&-
}

# Whether the running session daemon holds any recording session.
dnntrace_sessiond_has_sessions() {
	lttng list 2>/dev/null | grep -q '^ *[0-9][0-9]*) '
}

# Under the lock: a session daemon runs, started (and noted) when none did.
dnntrace_manual_ensure_sessiond() {
	dnntrace_sessiond_running && return 0
	local pid
	pid=$(dnntrace_start_sessiond) || return 1
	echo "$pid" >"$(dnntrace_manual_dir)/$DNNTRACE_MANUAL_DAEMON_FILE"
}

# Under the lock: stops the daemon a manual session started once it holds
# no session (another manual session's, or the user's own, keep it).
dnntrace_manual_release_sessiond() {
	local owner pid
	owner="$(dnntrace_manual_dir)/$DNNTRACE_MANUAL_DAEMON_FILE"
	[ -f "$owner" ] || return 0
	pid=$(cat "$owner" 2>/dev/null)
	if [ -n "$pid" ] && dnntrace_process_running "$pid"; then
		dnntrace_sessiond_has_sessions && return 0
		dnntrace_stop_sessiond "$pid"
	fi
	rm -f "$owner"
}

# Where a manual session (start_tracing.sh / stop_tracing.sh) keeps its name
# and trace directory.
dnntrace_state_file() {
	echo "${DNNTRACE_STATE_DIR:-${LTTNG_HOME:-$HOME}}/$DNNTRACE_STATE_FILE_NAME"
}

dnntrace_analyze() {
	[ -x "$DNNTRACE_ANALYZER" ] ||
		dnntrace_die "analyzer not found at $DNNTRACE_ANALYZER (run make)"
	"$DNNTRACE_ANALYZER" "$@"
}
