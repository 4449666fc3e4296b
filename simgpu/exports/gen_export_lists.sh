#!/bin/sh
# Writes, for every library simgpu twins, the list of functions the REAL
# library exports (name, symbol version, return type), read from the
# toolkit's own files: names and versions from the library's dynamic symbol
# table (readelf), return types from the toolkit's headers (a C++ probe,
# compiled against them, prints each declared function's return type).
# These lists are the one source of truth for simgpu's stubs
# (gen_stubs.sh); they are checked in, and test_export_lists.sh
# regenerates them and compares. Never edits the toolkit or the repository:
# it writes only into OUTDIR.
#   gen_export_lists.sh CUDA_HOME OUTDIR
# Return column: "status" (the library's status type: cudaError_t, CUresult,
# cublasStatus_t, cudnnStatus_t, CUptiResult), "void", the C++ spelling of
# any other type, or "undeclared" (in no header that compiles here, such as
# the VDPAU interop calls without vdpau.h: assumed to return the status).
set -eu
cuda=${1:?usage: gen_export_lists.sh CUDA_HOME OUTDIR}
out=${2:?usage: gen_export_lists.sh CUDA_HOME OUTDIR}
CXX=${CXX:-c++}
inc=$cuda/include
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

find_lib() { # soname [dirs...]: the first regular file or link found
	name=$1; shift
	for d in "$@"; do
		[ -e "$d/$name" ] && { echo "$d/$name"; return 0; }
	done
	echo "gen_export_lists.sh: $name not found under $cuda" >&2
	return 1
}
libdirs="$cuda/lib64 $cuda/lib $cuda/targets/x86_64-linux/lib $cuda/extras/CUPTI/lib64"

# One probe translation unit per header group (cublas.h and cublasXt.h
# cannot share one: cublasXt.h includes cublas_v2.h).
# group: id, status type, headers (space separated), extra defines
probe() { # soname stubfile status_type "headers" defines
	soname=$1 lib=$2 status=$3 view=$4 headers=$5 defines=$6 group=$7
	hdr=$work/$group.h
	: > "$hdr"
	for h in $headers; do echo "#include <$h>" >> "$hdr"; done
	# Declared names: a name followed by '(' in the preprocessed headers.
	undef=; [ "$view" = c ] && undef=-U__cplusplus
	$CXX -std=c++17 -E -P $undef $defines -I"$inc" -x c++ "$hdr" > "$work/$group.i" 2>/dev/null
	tr -s ' \t' '  ' < "$work/$group.i" | grep -oE '[A-Za-z_][A-Za-z0-9_]* ?\(' |
		tr -d ' (' | sort -u > "$work/$group.declared"
	# Only names no earlier group classified (a later group may bring C++
	# overloads of them: cuda_egl_interop.h includes cuda_runtime.h).
	cut -d' ' -f1 "$work/$soname.kinds" | sort -u > "$work/$group.done"
	comm -12 "$work/$soname.names" "$work/$group.declared" |
		comm -23 - "$work/$group.done" > "$work/$group.probe"
	{
		cat <<'EOF'
#include <cstdio>
#include <cstring>
#include <type_traits>
EOF
		# The C view: the headers without the C++ overloads some add
		# (cublas_api.h's emulation-strategy wrappers), which would make a
		# name's address ambiguous; the C++ view then finds what only C++
		# declares (cublasHgemm and the other __half calls).
		[ "$view" = c ] && echo "#undef __cplusplus"
		echo "#include \"$hdr\""
		cat <<'EOF'
template <class T> static const char *type_name(void)
{
	static char buf[256];
	const char *p = std::strstr(__PRETTY_FUNCTION__, "T = ");
	std::snprintf(buf, sizeof buf, "%s", p ? p + 4 : "?");
	char *e = std::strpbrk(buf, ";]");
	if (e) *e = 0;
	return buf;
}
template <class R> static void put(const char *n)
{
	if (std::is_same<R, STATUS_TYPE>::value) std::printf("%s status\n", n);
	else if (std::is_void<R>::value) std::printf("%s void\n", n);
	else std::printf("%s %s\n", n, type_name<R>());
}
template <class F> struct ret;
template <class R, class... A> struct ret<R (*)(A...)> { typedef R type; };
template <class R, class... A> struct ret<R (*)(A..., ...)> { typedef R type; };
template <class R, class... A> struct ret<R (*)(A...) noexcept> { typedef R type; };
template <class R, class... A> struct ret<R (*)(A..., ...) noexcept> { typedef R type; };
int main(void)
{
EOF
		sed 's/.*/\tput<ret<decltype(\&&)>::type>("&");/' "$work/$group.probe"
		echo "}"
	} > "$work/$group.cc"
	$CXX -std=c++17 -w -DSTATUS_TYPE="$status" $defines -I"$inc" \
		"$work/$group.cc" -o "$work/$group.bin"
	"$work/$group.bin" >> "$work/$soname.kinds"
}

one_library() { # soname status_type "view:headers:defines"... (view: c or c++)
	soname=$1 status=$2; shift 2
	case $soname in
	libcuda.so.1) lib=$(find_lib libcuda.so "$cuda/lib64/stubs" "$cuda/targets/x86_64-linux/lib/stubs") ;;
	*) lib=$(find_lib "$soname" $libdirs) ;;
	esac
	# Defined functions with their version ("name@@node", or bare).
	readelf --dyn-syms -W "$lib" | awk '$4 == "FUNC" && $7 != "UND" { print $8 }' |
		sort -u > "$work/$soname.syms"
	sed 's/@.*//' "$work/$soname.syms" | sort -u > "$work/$soname.names"
	: > "$work/$soname.kinds"
	n=0
	for g in "$@"; do
		n=$((n + 1))
		view=${g%%:*} g=${g#*:}
		headers=${g%%:*} defines=${g#*:}
		probe "$soname" "$lib" "$status" "$view" "$headers" "$defines" "$soname.$n"
	done
	sort "$work/$soname.kinds" > "$work/$soname.kind1"
	{
		echo "# $soname: functions the real library exports (name, version, return type)."
		echo "# Generated by simgpu/exports/gen_export_lists.sh from CUDA $(basename "$(readlink -f "$cuda")"); do not edit."
		awk -v kinds="$work/$soname.kind1" '
			BEGIN { while ((getline l < kinds) > 0) { k = index(l, " "); r[substr(l, 1, k - 1)] = substr(l, k + 1) } }
			{
				name = $0; ver = "-"
				if ((i = index($0, "@")) > 0) { name = substr($0, 1, i - 1); ver = $0; sub(/^[^@]*@+/, "", ver) }
				printf "%s\t%s\t%s\n", name, ver, (name in r) ? r[name] : "undeclared"
			}' "$work/$soname.syms"
	} > "$out/$soname.exports"
}

internal=-D__CUDA_API_VERSION_INTERNAL
rt="cuda_runtime_api.h cuda_profiler_api.h"
rt_gl="cuda_runtime_api.h GL/gl.h cuda_gl_interop.h cuda_egl_interop.h"
drv="cuda.h cudaProfiler.h GL/gl.h cudaGL.h cudaEGL.h"
cupti="cupti.h cupti_events.h cupti_metrics.h cupti_pcsampling.h cupti_pcsampling_util.h cupti_profiler_target.h cupti_profiler_host.h cupti_range_profiler.h cupti_sass_metrics.h cupti_pmsampling.h cupti_checkpoint.h"
# One background job per library.
one_library libcudart.so.13 cudaError_t "c:$rt:$internal" "c:$rt_gl:$internal" \
	"c++:$rt:$internal" &
one_library libcuda.so.1 CUresult "c:$drv:$internal" &
one_library libcublas.so.13 cublasStatus_t "c:cublas.h:" "c++:cublas.h:" "c++:cublasXt.h:" &
one_library libcublasLt.so.13 cublasStatus_t "c:cublasLt.h:" &
one_library libcudnn.so.9 cudnnStatus_t "c:cudnn.h:" &
one_library libcupti.so.13 CUptiResult "c++:$cupti:" &
# The six run at once (each in its own files); any failure fails the script.
status=0
for job in $(jobs -p); do wait "$job" || status=1; done
wait || status=1
[ $status -eq 0 ] || { echo "gen_export_lists.sh: a library failed (above)" >&2; exit 1; }
