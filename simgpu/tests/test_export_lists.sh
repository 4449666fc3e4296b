#!/bin/sh
# The checked-in export lists (simgpu/exports/*.exports, the source of
# simgpu's stubs) are what gen_export_lists.sh writes from the installed
# toolkit: regenerated into a scratch directory and compared. A toolkit
# update shows here first (then rerun the script into simgpu/exports/ and
# commit). Skips (77) without the toolkit's libraries or a C++ compiler.
set -eu
root=${DNNTRACE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd -P)}
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -e "$cuda/lib64/libcudart.so.13" ] || { echo "SKIP: no toolkit libraries under $cuda"; exit 77; }
command -v "${CXX:-c++}" >/dev/null || { echo "SKIP: no C++ compiler"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$root/simgpu/exports/gen_export_lists.sh" "$cuda" "$tmp" 2>"$tmp/log" ||
	{ tail -5 "$tmp/log"; echo "FAIL: gen_export_lists.sh failed"; exit 1; }
status=0
for f in "$root"/simgpu/exports/*.exports; do
	if ! diff -u "$f" "$tmp/$(basename "$f")" > "$tmp/diff"; then
		echo "FAIL: $(basename "$f") differs from the toolkit's:"; head -20 "$tmp/diff"; status=1
	fi
done
n=$(ls "$tmp"/*.exports | wc -l)
[ "$n" -eq "$(ls "$root"/simgpu/exports/*.exports | wc -l)" ] || { echo "FAIL: $n lists generated"; status=1; }
[ $status -eq 0 ] && echo "the $n export lists match the toolkit"
exit $status
