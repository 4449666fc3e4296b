#!/bin/sh
# Every function the toolkit's real libraries export is exported by
# simgpu's twin with the same symbol version: libcudart.so.13, the
# driver stub (libcuda.so.1), libcublas.so.13, libcublasLt.so.13,
# libcudnn.so.9 and libcupti.so.13. Ground truth: the real libraries'
# dynamic symbol tables, read here with readelf (not the checked-in lists,
# which test_export_lists.sh checks). Skips (77) without the toolkit's
# libraries. Needs DNNTRACE_BUILD (run_tests.sh sets it).
set -eu
cuda=${CUDA_HOME:-/usr/local/cuda}
build=${DNNTRACE_BUILD:?DNNTRACE_BUILD not set}
sim=$build/simgpu/lib
command -v readelf >/dev/null || { echo "SKIP: no readelf"; exit 77; }

real_lib() { # soname: the toolkit's file, or nothing
	case $1 in
	libcuda.so.1) set -- libcuda.so "$cuda/lib64/stubs" "$cuda/targets/x86_64-linux/lib/stubs" ;;
	*) set -- "$1" "$cuda/lib64" "$cuda/lib" "$cuda/targets/x86_64-linux/lib" "$cuda/extras/CUPTI/lib64" ;;
	esac
	name=$1; shift
	for d in "$@"; do [ -e "$d/$name" ] && { echo "$d/$name"; return; }; done
}

# name<TAB>version of every defined function ("-": no version).
exported() {
	readelf --dyn-syms -W "$1" | awk '$4 == "FUNC" && $7 != "UND" {
		n = $8; v = "-"
		if ((i = index(n, "@")) > 0) { v = substr(n, i); sub(/^@+/, "", v); n = substr(n, 1, i - 1) }
		print n "\t" v }' | sort -u
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checked=0 failed=0
for so in libcudart.so.13 libcuda.so.1 libcublas.so.13 libcublasLt.so.13 libcudnn.so.9 libcupti.so.13; do
	real=$(real_lib $so)
	[ -n "$real" ] || { echo "no real $so under $cuda: not compared"; continue; }
	[ -f "$sim/$so" ] || { echo "FAIL: $sim/$so not built"; failed=1; continue; }
	exported "$real" > "$tmp/real"
	exported "$sim/$so" > "$tmp/sim"
	[ -s "$tmp/real" ] || { echo "FAIL: no functions read from $real"; failed=1; continue; }
	comm -23 "$tmp/real" "$tmp/sim" > "$tmp/missing"
	missing=$(wc -l < "$tmp/missing")
	echo "$so: $(wc -l < "$tmp/real") real exports, $missing missing from simgpu"
	if [ "$missing" -ne 0 ]; then
		sed 's/^/  missing: /' "$tmp/missing" | head -20
		failed=1
	fi
	checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || { echo "SKIP: none of the toolkit's libraries found under $cuda"; exit 77; }
[ "$failed" -eq 0 ] || exit 1
echo "every export of the $checked libraries compared is in simgpu's twin, same version"
