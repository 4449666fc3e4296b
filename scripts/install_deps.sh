#!/usr/bin/env bash
# install_deps.sh [--tests]: installs what building and tracing dnntrace needs
# (make deps), and with --tests also what only the test suite needs (make
# test: Debian's CPU build of PyTorch, for the naming helper's tests), so the
# demo does not download it. Idempotent: runs apt-get (one update, then install) only when a
# package is missing, through sudo when not root. Checks, but never installs,
# the CUDA toolkit. Must never remove or upgrade anything already installed.
set -euo pipefail

packages=(
	build-essential   # cc, make
	lttng-tools       # lttng, lttng-sessiond
	liblttng-ust-dev  # tracepoint providers (libdnntrace.so)
	babeltrace2       # trace reader (debugging, tests)
	libbabeltrace2-dev # the analyzer
	util-linux        # unshare (tests' private session daemon)
	python3           # end-to-end test comparers
	python3-matplotlib # dnntrace plot (report pictures)
	coreutils         # timeout, env --default-signal
	procps            # pgrep (dnntrace stops a stuck session daemon it started)
	libzstd1          # simgpu's fatbin reader: zstd-compressed cubins (dlopen)
)
case "${1:-}" in
--tests) packages+=(python3-torch # tests/python: the PyTorch naming helper (CPU build)
	strace                            # tests/analysis: the analyzer's watchdog (a delayed open)
	protobuf-compiler) ;;             # tests/e2e: protoc decodes timeline.pftrace
"") ;;
*) echo "install_deps: unknown argument $1 (usage: install_deps.sh [--tests])" >&2; exit 1 ;;
esac

missing=()
for package in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$package")
	fi
done

if [ ${#missing[@]} -gt 0 ]; then
	command -v apt-get >/dev/null 2>&1 || {
		echo "install_deps: missing ${missing[*]} and no apt-get here; install them by hand" >&2
		exit 1
	}
	sudo=()
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null 2>&1 || {
			echo "install_deps: missing ${missing[*]}; run as root or install sudo" >&2
			exit 1
		}
		sudo=(sudo)
	fi
	echo "install_deps: installing ${missing[*]}" >&2
	"${sudo[@]}" apt-get update -qq
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
	echo "install_deps: all packages present" >&2
fi

cuda_home=${CUDA_HOME:-/usr/local/cuda}
if [ ! -f "$cuda_home/include/cuda_runtime_api.h" ]; then
	echo "install_deps: CUDA toolkit not found at $cuda_home (need include/cuda_runtime_api.h); install CUDA 13 and set CUDA_HOME" >&2
	exit 1
fi
if [ ! -f "$cuda_home/extras/CUPTI/include/cupti_activity.h" ] && [ ! -f "$cuda_home/include/cupti_activity.h" ]; then
	echo "install_deps: CUPTI headers not found under $cuda_home (need cupti_activity.h)" >&2
	exit 1
fi
echo "install_deps: CUDA toolkit at $cuda_home" >&2
