#!/usr/bin/env bash
# tests/corpus/run.sh DIR: third-party CUDA programs on simgpu. DIR holds
# checkouts the user provides (nothing of theirs is committed here):
# DIR/cuda-samples (NVIDIA/cuda-samples) and/or DIR/llm.c (karpathy/llm.c).
# Builds each program of programs.txt with the toolkit's nvcc (-arch=sm_90,
# -cudart shared, as users build; nice; cached: rebuilt only when a source
# is newer), runs it on simgpu untraced and under `dnntrace record --simgpu`
# (its own private session daemon), and prints one table row per program:
# whether it built, how the untraced run ended (exit status, signal,
# timeout), whether the traced run printed the same and ended the same
# ("timing": the same once numbers are masked, for programs that print
# their own timings), and the kernels and tensors dnntrace's analysis found
# (kernels/tensors of the analysis summary); "varies": two untraced runs
# differ from each other as much (a time-seeded rand(), thread order).
# Without DIR (or with neither checkout in it) it says so and exits 77, the
# test runner's skip. Exit 0 when every built program ended the same traced
# as untraced and none was killed by "undefined symbol"; 1 otherwise.
# Environment: DNNTRACE_BUILD (default build/), CORPUS_OUT (builds and runs,
# default $DNNTRACE_BUILD/corpus), CORPUS_ONLY (space-separated names),
# CORPUS_TIMEOUT (seconds per run, default 300), CORPUS_BUILD_ONLY (set:
# build, run nothing), CUDA_HOME.
# Never writes into DIR: programs run in a scratch directory of their own
# with links to the data files they read.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd -P)
dir=${1:-}
if [ -z "$dir" ] || { [ ! -d "$dir/cuda-samples" ] && [ ! -d "$dir/llm.c" ]; }; then
	echo "SKIP: no corpus checkout given (usage: tests/corpus/run.sh DIR, DIR/cuda-samples and/or DIR/llm.c)"
	exit 77
fi
dir=$(cd "$dir" && pwd -P)
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$cuda/bin/nvcc
[ -x "$nvcc" ] || { echo "SKIP: $nvcc not found"; exit 77; }
build=${DNNTRACE_BUILD:-$root/build}
build=$(cd "$build" && pwd -P) || { echo "run.sh: no build directory (run make)" >&2; exit 2; }
simlib=$build/simgpu/lib
for f in "$simlib/libcudart.so.13" "$build/lib/libdnntrace.so"; do
	[ -e "$f" ] || { echo "run.sh: $f not built (run make)" >&2; exit 2; }
done
out=${CORPUS_OUT:-$build/corpus}
timeout_s=${CORPUS_TIMEOUT:-300}
mkdir -p "$out/report"
export DNNTRACE_PLOTS=0

# How a run ended, from its status (timeout(1) gives 124; 128+N: signal N).
ending() {
	case $1 in
	0) echo "exit 0" ;;
	124) echo "timeout ${timeout_s}s" ;;
	127) echo "exit 127" ;;
	*) # 128+N for a signal N (1..64); anything else is the program's own status
		if [ "$1" -gt 128 ] && [ "$1" -le 192 ]; then
			echo "signal $(kill -l $(($1 - 128)) 2>/dev/null || echo $(($1 - 128)))"
		else
			echo "exit $1"
		fi ;;
	esac
}

# build NAME CHECKOUT SRCDIR "SOURCES" "EXTRA": the program, once.
build_one() {
	local name=$1 src=$2 sources=$3 extra=$4 bin=$out/bin/$1 newest s fatbin_src=
	local -a srcs=() args=()
	for s in $sources; do srcs+=("$src/$s"); done
	for s in ${extra//@CUDA_HOME@/$cuda}; do
		case $s in fatbin:*) fatbin_src=${s#fatbin:} ;; *) args+=("$s") ;; esac
	done
	newest=$(ls -t "${srcs[@]}" 2>/dev/null | head -n 1)
	[ -n "$newest" ] || return 1
	if [ -x "$bin" ] && [ "$bin" -nt "$newest" ] &&
		{ [ -z "$fatbin_src" ] || [ -f "$out/bin/$name.fatbin.ok" ]; }; then
		return 0
	fi
	mkdir -p "$out/bin" "$out/log"
	local include=$dir/cuda-samples/Common
	nice -n 10 "$nvcc" -arch=sm_90 -cudart shared -I"$include" -I"$src" "${srcs[@]}" \
		-o "$bin" -L"$cuda/lib64" "${args[@]}" >"$out/log/$name.build" 2>&1 || return 1
	if [ -n "$fatbin_src" ]; then
		# The name the program looks for (matrixMulDrv: matrixMul_kernel64.fatbin).
		nice -n 10 "$nvcc" -arch=sm_90 -I"$include" -fatbin "$src/$fatbin_src" \
			-o "$out/bin/${fatbin_src%.cu}64.fatbin" >>"$out/log/$name.build" 2>&1 || return 1
		touch "$out/bin/$name.fatbin.ok"
	fi
}

# A scratch directory where the program finds its data files (./ and
# ./data/, as cuda-samples' sdkFindFilePath searches) and nothing else.
run_dir() {
	local name=$1 src=$2 d=$out/run/$1 f
	rm -rf "$d"
	mkdir -p "$d/data"
	for f in "$src"/data/* "$dir"/cuda-samples/Common/data/*; do
		[ -f "$f" ] && ln -sf "$f" "$d/data/$(basename "$f")"
	done
	for f in "$out"/bin/*.fatbin; do [ -f "$f" ] && ln -sf "$f" "$d/"; done
	echo "$d"
}

printf '%-26s %-6s %-14s %-14s %-6s %s\n' program builds untraced traced same kernels/tensors
failed=0
while IFS='|' read -r name checkout srcdir sources extra args; do
	case $name in ''|'#'*) continue ;; esac
	if [ -n "${CORPUS_ONLY:-}" ] && [[ " $CORPUS_ONLY " != *" $name "* ]]; then continue; fi
	src=$dir/$checkout/$srcdir
	if [ ! -d "$src" ]; then
		printf '%-26s %-6s %s\n' "$name" "-" "(no $checkout checkout)"
		continue
	fi
	if ! build_one "$name" "$src" "$sources" "$extra"; then
		printf '%-26s %-6s %s\n' "$name" "no" "(log: $out/log/$name.build)"
		failed=1
		continue
	fi
	bin=$out/bin/$name
	if [ -n "${CORPUS_BUILD_ONLY:-}" ]; then
		printf '%-26s %-6s\n' "$name" yes
		continue
	fi
	# shellcheck disable=SC2086 # program arguments are words
	run=$(run_dir "$name" "$src")
	(cd "$run" && LD_LIBRARY_PATH="$simlib" timeout -k 5 "$timeout_s" "$bin" $args \
		>"$out/log/$name.untraced.out" 2>"$out/log/$name.untraced.err" </dev/null)
	status=$?
	run=$(run_dir "$name" "$src")
	rm -rf "$out/trace/$name"
	mkdir -p "$out/trace"
	# shellcheck disable=SC2086
	(cd "$run" && timeout -k 5 "$timeout_s" "$root/tests/lib/private_lttng.sh" \
		"$root/scripts/dnntrace" record --simgpu -o "$out/trace/$name" -- "$bin" $args \
		>"$out/log/$name.traced.out" 2>"$out/log/$name.traced.err" </dev/null)
	traced=$?
	# "yes": same status and output; "timing": same status and the same
	# output once every number is masked (programs that print their own
	# timings, iteration counts, thread ids or random sizes); "no" else.
	same=no
	if [ "$status" = "$traced" ]; then
		if cmp -s "$out/log/$name.untraced.out" "$out/log/$name.traced.out"; then
			same=yes
		elif cmp -s <(sed 's/[0-9][0-9.e+-]*/N/g' "$out/log/$name.untraced.out" | sort) \
			<(sed 's/[0-9][0-9.e+-]*/N/g' "$out/log/$name.traced.out" | sort); then
			same=timing
		fi
	fi
	# A program whose output differs from run to run anyway (a time-seeded
	# rand(), thread interleaving): a second untraced run tells.
	if [ "$same" = no ] && [ "$status" = "$traced" ]; then
		run=$(run_dir "$name" "$src")
		# shellcheck disable=SC2086
		(cd "$run" && LD_LIBRARY_PATH="$simlib" timeout -k 5 "$timeout_s" "$bin" $args \
			>"$out/log/$name.untraced2.out" 2>/dev/null </dev/null)
		if ! cmp -s <(sed 's/[0-9][0-9.e+-]*/N/g' "$out/log/$name.untraced.out" | sort) \
			<(sed 's/[0-9][0-9.e+-]*/N/g' "$out/log/$name.untraced2.out" | sort); then
			same=varies
		fi
	fi
	counts=-
	rm -rf "$out/report/$name"
	if [ -d "$out/trace/$name" ] &&
		"$root/scripts/dnntrace" analyze "$out/trace/$name" -o "$out/report/$name" \
			>"$out/log/$name.analyze" 2>&1; then
		# a report that traced nothing says so in its first line (issue 17)
		counts=$(awk '/^kernels: /{k=$2} /^tensors: /{t=$2}
			/^no CUDA allocation, copy or launch was traced/{none=1}
			END{if (none) print "0/0 (no GPU calls traced)"; else printf "%s/%s", k, t}' \
			"$out/report/$name/summary.txt")
	elif grep -q "has no dnntrace events" "$out/log/$name.analyze" 2>/dev/null; then
		counts="0/0 (no GPU calls traced)"
	fi
	note=
	if grep -q "symbol lookup error\|undefined symbol" "$out/log/$name.untraced.err"; then
		note=" [undefined symbol: $(grep -o 'undefined symbol: [A-Za-z0-9_]*' "$out/log/$name.untraced.err" | head -n 1 | cut -d' ' -f3)]"
		failed=1
	fi
	unsupported=$(grep -o 'simgpu: [A-Za-z0-9_]* is not supported' "$out/log/$name.untraced.err" | cut -d' ' -f2 | tr '\n' ' ')
	[ -n "$unsupported" ] && note="$note [not supported: ${unsupported% }]"
	if [ "$same" = no ]; then failed=1; fi
	printf '%-26s %-6s %-14s %-14s %-6s %s%s\n' "$name" yes "$(ending "$status")" \
		"$(ending "$traced")" "$same" "$counts" "$note"
done < "$root/tests/corpus/programs.txt"
exit $failed
