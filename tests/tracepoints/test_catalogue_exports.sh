#!/usr/bin/env bash
# The catalogue (tracepoints/entry_points.h) and libdnntrace.so name the same
# entry points: every wrapped entry point of the catalogue is exported by the
# library, and every CUDA, cuDNN or cuBLAS function the library exports is in
# the catalogue (a wrapper nobody listed would be missed by dlsym and
# cuGetProcAddress substitution, and its calls would have no name in the
# analyzer). And the library exports nothing else but its public API: the
# tracepoints are hidden definitions (interceptors/module.mk). Must never
# compare the CUDA names against a list kept by hand.
set -euo pipefail
build=${DNNTRACE_BUILD:?run through tests/run_tests.sh}
lib=$build/lib/libdnntrace.so
lister=$build/tests/test_tracepoints_entry_points
[ -f "$lib" ] || { echo "FAIL: $lib not built"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$lister" --wrapped | sort >"$tmp/catalogue"
nm -D --defined-only "$lib" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
	grep -E '^(cu|cuda|cudnn|cublas|__cuda)' | sort >"$tmp/exported"

missing=$(comm -23 "$tmp/catalogue" "$tmp/exported")
unlisted=$(comm -13 "$tmp/catalogue" "$tmp/exported")
[ -z "$missing" ] || { echo "FAIL: in the catalogue but not exported by libdnntrace.so:" $missing; exit 1; }
[ -z "$unlisted" ] || { echo "FAIL: exported by libdnntrace.so but not in the catalogue:" $unlisted; exit 1; }
# Every other symbol any module could bind to: the public API, by hand.
public="InitializeInjectionNvtx2 _Exit _exit dlsym dnntrace_tag pthread_create"
readelf --dyn-syms -W "$lib" | awk '$7 != "UND" && $6 == "DEFAULT" && $5 != "LOCAL" { sub(/@.*/, "", $8); print $8 }' |
	grep -v -E '^(cu|cuda|cudnn|cublas|__cuda)' | sort -u >"$tmp/other"
extra=$(comm -23 "$tmp/other" <(printf '%s\n' $public | sort))
[ -z "$extra" ] || { echo "FAIL: libdnntrace.so exports more than its public API:" $extra; exit 1; }
echo "catalogue and libdnntrace.so agree on $(wc -l <"$tmp/catalogue") entry points"
