#!/usr/bin/env bash
# simgpu's layering (simgpu/README.md, "Layout"), checked on the sources and
# on the built core objects:
#   1. the core (simgpu/core/, the device model inside libcuda.so.1) never
#      calls an API layer: no core object references a symbol that an API
#      layer's object defines, nor one named like an entry point of a
#      simulated library (cu*, cuda*, cupti*, cublas*, cudnn*, nvml*);
#   2. the core includes only core headers and simgpu/simgpu.h;
#   3. no simgpu file includes a tracer header (interceptors/, tracepoints/,
#      analysis/), and no simgpu module.mk builds from a tracer path;
#   4. a library folder includes only its own headers and core's; the
#      core's internals (sim_internal.h) only in libcuda.so.1 (core, driver);
#      no library includes a test helper.
# Then it breaks a copy of the tree (or adds an object to the core's) on
# purpose, one way per rule, and checks that each is caught: a checker that
# cannot fail proves nothing. Never writes into the tree or the build.
. "$DNNTRACE_ROOT/tests/lib/common.sh"
require_command nm cc

obj=$DNNTRACE_BUILD/simgpu/obj
require_built "$obj/core" "$obj/driver" "$obj/cudart" "$obj/cupti"

# The simulated libraries' entry points, by name.
api_name='^(cu|cuda|cupti|cublas|cublasLt|cudnn|nvml)[A-Z_]|^__cuda'
# The API layers' object folders.
library_folders="driver cudart cupti cublas cudnn nvml exports"

# The symbols the API layers' objects define, "SYMBOL OBJECT" a line.
api_symbols=$TEST_TMP/api_symbols
api_objs=()
for folder in $library_folders; do
	for file in "$obj/$folder"/*.o; do
		[ -e "$file" ] && api_objs+=("$file")
	done
done
nm -A --defined-only "${api_objs[@]}" |
	awk 'NF == 3 && $2 ~ /[TDBRWV]/ { f = $1; sub(/:[^:]*$/, "", f); print $3, f }' >"$api_symbols"

# check_objects CORE_OBJECT...: prints one line per call up from a core
# object (rule 1).
check_objects() {
	{ nm -A --defined-only "$@"; echo "--- used"; nm -A -u "$@"; } |
		awk -v api_file="$api_symbols" -v api_name="$api_name" -v root="$obj/" '
		BEGIN { while ((getline line < api_file) > 0) { split(line, w, " "); api[w[1]] = w[2] } }
		$0 == "--- used" { used = 1; next }
		!used { if (NF == 3) core[$3] = 1; next }
		{
			file = $1; sub(/:[^:]*$/, "", file); sub(/^.*\/core\//, "core/", file)
			symbol = $NF
			if (symbol in core) next
			if (symbol in api) {
				by = api[symbol]; sub("^" root, "", by)
				print "core calls up: " file " uses " symbol ", defined by " by
			} else if (symbol ~ api_name)
				print "core calls up: " file " uses the entry point " symbol
		}'
}

# check_sources SRC: prints one line per include or build rule of SRC (a
# simgpu source tree) that breaks rules 2 to 4.
check_sources() {
	local src=$1 file
	(cd "$src" && grep -rHE --include='*.[ch]' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' .) |
		awk -F'"' '{
			file = $1; sub(/^\.\//, "", file); sub(/:.*$/, "", file)
			target = $2; folder = file; sub(/\/.*$/, "", folder)
			if (target ~ /^(interceptors|tracepoints|analysis)\//) {
				print "tracer header: " file " includes " target; next
			}
			if (target !~ /^simgpu\// || folder == "tests") next
			owner = substr(target, 8); sub(/\/.*$/, "", owner)
			if (owner == "simgpu.h") next
			if (owner == "tests")
				print "test helper in a library: " file " includes " target
			else if (folder == "core" && owner != "core")
				print "core includes an API layer: " file " includes " target
			else if (owner != "core" && owner != folder)
				print "library includes another'"'"'s header: " file " includes " target
			else if (target == "simgpu/core/sim_internal.h" && folder != "core" && folder != "driver")
				print "core internals outside libcuda.so.1: " file " includes " target
		}'
	while IFS= read -r file; do
		grep -nE '(^|[^A-Za-z_/])(interceptors|tracepoints|analysis)/' "$file" |
			grep -v '^[0-9]*:[[:space:]]*#' |
			sed "s|^|tracer path in a build rule: ${file#"$src"/}:|"
	done < <(find "$src" -name module.mk -type f | sort)
}

# The real tree must pass.
core_objs=("$obj"/core/*.o)
[ "${#core_objs[@]}" -ge 10 ] || fail "only ${#core_objs[@]} core objects in $obj/core"
breaches=$(check_objects "${core_objs[@]}"; check_sources "$DNNTRACE_ROOT/simgpu")
[ -z "$breaches" ] || fail "simgpu's layering is broken:
$breaches"

# Broken on purpose, one way each, the check must fail, naming the breach.
expect_breach() { # expect_breach WHAT PATTERN FOUND
	grep -qF -- "$2" <<<"$3" ||
		fail "the check missed a deliberate breach ($1): got '${3:-nothing}'"
}
broken_core_object() { # broken_core_object C-SOURCE: core objects plus it
	mkdir -p "$TEST_TMP/core"
	printf '%s\n' "$1" | cc -c -x c - -o "$TEST_TMP/core/broken.o" ||
		fail "cannot compile the broken object"
	check_objects "${core_objs[@]}" "$TEST_TMP/core/broken.o"
}
broken_sources() { # broken_sources FILE LINE: a copy of the tree, FILE with LINE added
	rm -rf "${TEST_TMP:?}/src"
	cp -r "$DNNTRACE_ROOT/simgpu" "$TEST_TMP/src"
	printf '%s\n' "$2" >>"$TEST_TMP/src/$1"
	check_sources "$TEST_TMP/src"
}

found=$(broken_core_object 'int cuMemAlloc_v2(void *p, unsigned long n);
int cuSimgpuNoSuchCall(void);
int broken(void) { return cuMemAlloc_v2(0, 0) + cuSimgpuNoSuchCall(); }')
expect_breach "a core object calls the driver's cuMemAlloc_v2" \
	'core calls up: core/broken.o uses cuMemAlloc_v2, defined by driver/' "$found"
expect_breach "a core object calls an entry point no object defines" \
	'core calls up: core/broken.o uses the entry point cuSimgpuNoSuchCall' "$found"

# A driver-internal function (not an entry point): defined by a driver object.
driver_only=$(awk '$1 !~ /^cu/ && $2 ~ /\/driver\// { print $1; exit }' "$api_symbols")
[ -n "$driver_only" ] || fail "no driver-internal function to call in the broken object"
found=$(broken_core_object "int $driver_only(void); int broken(void) { return $driver_only(); }")
expect_breach "a core object calls the driver's $driver_only" \
	"core calls up: core/broken.o uses $driver_only, defined by driver/" "$found"

found=$(broken_sources cupti/cupti_activity.c '#include "interceptors/core/tracer.h"')
expect_breach "a simgpu file includes a tracer header" \
	'tracer header: cupti/cupti_activity.c includes interceptors/core/tracer.h' "$found"

found=$(broken_sources nvml/module.mk '$(BUILD)/x: interceptors/core/nvml_api.h')
expect_breach "a simgpu module.mk depends on a tracer file" \
	'tracer path in a build rule: nvml/module.mk' "$found"

found=$(broken_sources core/core_report.c '#include "simgpu/driver/driver_internal.h"')
expect_breach "the core includes a driver header" \
	'core includes an API layer: core/core_report.c includes simgpu/driver/driver_internal.h' "$found"

found=$(broken_sources cupti/cupti_callbacks.c '#include "simgpu/cudart/cudart_internal.h"')
expect_breach "CUPTI includes the runtime's header" \
	"library includes another's header: cupti/cupti_callbacks.c includes simgpu/cudart/cudart_internal.h" "$found"

found=$(broken_sources cudart/cudart_errors.c '#include "simgpu/core/sim_internal.h"')
expect_breach "the runtime includes the core's internals" \
	'core internals outside libcuda.so.1: cudart/cudart_errors.c' "$found"

found=$(broken_sources cublas/cublas_gemm.c '#include "simgpu/tests/simgpu_test.h"')
expect_breach "a library includes a test helper" \
	'test helper in a library: cublas/cublas_gemm.c' "$found"

echo "simgpu layering holds: ${#core_objs[@]} core objects call no API layer, no tracer header or path, includes by layer; 9 deliberate breaches caught"
