#!/usr/bin/env bash
# install_deps.sh is idempotent (nothing missing: no apt-get at all) and
# stops with one clear line when the CUDA toolkit is absent.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
command -v dpkg-query >/dev/null || skip "not a dpkg system"
mkdir -p "$scratch/bin"
for tool in apt-get sudo; do
	printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\nexit 1\n' "$tool" "$scratch" >"$scratch/bin/$tool"
	chmod +x "$scratch/bin/$tool"
done
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -f "$cuda/include/cuda_runtime_api.h" ] || skip "no CUDA toolkit at $cuda"

PATH="$scratch/bin:$PATH" "$SCRIPTS/install_deps.sh" >"$scratch/out" 2>&1 ||
	fail "install_deps failed with everything installed: $(tail -n 1 "$scratch/out")"
[ ! -e "$scratch/calls" ] || fail "install_deps ran $(cat "$scratch/calls") with nothing missing"
# make test has run `install_deps.sh --tests` before this test: idempotent too.
PATH="$scratch/bin:$PATH" "$SCRIPTS/install_deps.sh" --tests >"$scratch/out" 2>&1 ||
	fail "install_deps --tests failed with everything installed: $(tail -n 1 "$scratch/out")"
[ ! -e "$scratch/calls" ] || fail "install_deps --tests ran $(cat "$scratch/calls") with nothing missing"
PATH="$scratch/bin:$PATH" "$SCRIPTS/install_deps.sh" --bogus >"$scratch/out" 2>&1 &&
	fail "install_deps accepted an unknown argument"
[ "$(grep -c . "$scratch/out")" = 1 ] || fail "unknown argument: not one line: $(cat "$scratch/out")"

PATH="$scratch/bin:$PATH" CUDA_HOME="$scratch/no-cuda" "$SCRIPTS/install_deps.sh" >"$scratch/out" 2>&1 &&
	fail "install_deps accepted a missing CUDA toolkit"
grep -q "CUDA toolkit not found at $scratch/no-cuda" "$scratch/out" || fail "unclear error: $(cat "$scratch/out")"
exit 0
