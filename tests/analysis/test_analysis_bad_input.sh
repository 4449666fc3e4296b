#!/usr/bin/env bash
# Bad input for dnntrace-analyze: a path that does not exist, a directory
# that is not a trace, a trace without dnntrace events, truncated stream
# files, truncated, corrupt or empty metadata, removed stream files, corrupt
# packet headers: each must exit 2 with exactly one line on stderr and no
# crash (also under the ASan build, where a sanitizer or leak report would
# add lines). Damage that leaves something readable is
# test_analysis_damage.sh's. Usage errors exit 1 (bad --kernels, --granularity,
# --name, --range), also with one line (the usage
# text is for --help, which prints it to stdout and exits 0). Must never accept a partial
# success (exit 0) on such input.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

expect_exit 2 "nonexistent path" "No such file or directory" "$work/nope" -o "$work/o"
mkdir "$work/plain" && echo hello >"$work/plain/readme"
expect_exit 2 "not a trace" "not an LTTng trace" "$work/plain" -o "$work/o"
expect_exit 2 "a file, not a directory" "not a directory" "$work/plain/readme" -o "$work/o"

record "$work/empty" "'$emit' none >/dev/null" || fail "recording failed"
if [ -n "$(find "$work/empty" -name metadata)" ]; then
	expect_exit 2 "no dnntrace events" "no dnntrace events" "$work/empty" -o "$work/o"
else   # LTTng wrote no trace at all: then it is not a trace
	expect_exit 2 "no dnntrace events" "not an LTTng trace" "$work/empty" -o "$work/o"
fi

record_on_one_cpu "$work/good" main
"$analyze" "$work/good" -o "$work/report" >/dev/null 2>&1 || fail "the intact trace does not analyze"
cp "$work/report/summary.txt" "$work/summary.first"
# A second report into the same directory is refused, and leaves it alone...
expect_exit 1 "non-empty output directory" "is not empty" "$work/good" -o "$work/report"
cmp -s "$work/report/summary.txt" "$work/summary.first" || fail "a refused analysis touched the old report"
# ...unless --force says its files may be replaced.
"$analyze" "$work/good" -o "$work/report" --force >/dev/null 2>&1 || fail "--force did not replace the report"

# every stream file with events cut inside its packet: nothing readable
cp -r "$work/good" "$work/truncated"
for s in "${streams_with_events[@]}"; do
	truncate -s $(( $(stat -c %s "$work/truncated/$s") / 2 + 13 )) "$work/truncated/$s"
done
expect_exit 2 "truncated stream" "corrupt.*says [0-9]* bytes, the file has [0-9]* left" \
	"$work/truncated" -o "$work/o"

# metadata cut inside a packet (libbabeltrace2 2.0 spins forever on a
# metadata file cut at byte 20986, issue 8)
cp -r "$work/good" "$work/cutmeta"
c_meta=$work/cutmeta/${metadata#"$work/good/"}
[ "$(stat -c %s "$c_meta")" -gt 20986 ] || fail "metadata smaller than expected"
truncate -s 20986 "$c_meta"
expect_exit 2 "truncated metadata" "truncated or corrupt metadata (the file ends inside metadata packet" \
	"$work/cutmeta" -o "$work/o"

cp -r "$work/good" "$work/badmeta"
b_meta=$work/badmeta/${metadata#"$work/good/"}
printf 'garbage{{{;;;}}}' | dd of="$b_meta" bs=1 seek=2000 conv=notrunc 2>/dev/null
expect_exit 2 "corrupt metadata" "corrupt" "$work/badmeta" -o "$work/o"

cp -r "$work/good" "$work/nometa"
: >"$work/nometa/${metadata#"$work/good/"}"
expect_exit 2 "empty metadata" "metadata (empty)" "$work/nometa" -o "$work/o"

# removed stream files: all those with events (nothing left to read)...
cp -r "$work/good" "$work/removed"
for s in "${streams_with_events[@]}"; do rm "$work/removed/$s"; done
expect_exit 2 "removed stream file" "no dnntrace event is readable.*missing (its index is there)" \
	"$work/removed" -o "$work/o"
# a corrupt packet header: the only packet (nothing readable)...
cp -r "$work/good" "$work/badhead"
for s in "${streams_with_events[@]}"; do
	printf '\0\0\0\0' | dd of="$work/badhead/$s" bs=1 conv=notrunc 2>/dev/null
done
expect_exit 2 "corrupt packet header" "corrupt.*packet 0 at byte 0: no packet magic" \
	"$work/badhead" -o "$work/o"
expect_exit 1 "bad watchdog" "--watchdog-s needs" "$work/good" -o "$work/o" --watchdog-s x

expect_exit 1 "no arguments" "missing TRACE_DIR"
expect_exit 1 "no -o" "missing -o" "$work/good"
expect_exit 1 "bad window" "--kernels needs" "$work/good" -o "$work/o" --kernels 3:1
expect_exit 1 "window without a number" "--kernels needs" "$work/good" -o "$work/o" --kernels x
expect_exit 1 "window without its end" "--kernels needs" "$work/good" -o "$work/o" --kernels 1:
expect_exit 1 "window out of range" "out of range" "$work/good" -o "$work/o" --kernels 0:99
expect_exit 1 "unknown granularity" "--granularity needs" "$work/good" -o "$work/o" --granularity warp
expect_exit 1 "granularity without a value" "--granularity needs" "$work/good" -o "$work/o" --granularity
expect_exit 1 "op window out of range" "at most [0-9]* ops" "$work/good" -o "$work/o" --granularity op --kernels 0:99
expect_exit 1 "bad name" "--name needs" "$work/good" -o "$work/o" --name "a/b"
expect_exit 1 "unknown option" "unknown option" "$work/good" -o "$work/o" --frobnicate
expect_exit 1 "range without a name" "--range needs" "$work/good" -o "$work/o" --range
expect_exit 1 "empty range name" "--range needs" "$work/good" -o "$work/o" --range ""
expect_exit 1 "range occurrence 0" "--range needs" "$work/good" -o "$work/o" --range step:0
expect_exit 1 "range occurrence without a name" "--range needs" "$work/good" -o "$work/o" --range :2
expect_exit 1 "range occurrence overflow" "--range needs" "$work/good" -o "$work/o" \
	--range step:99999999999999999999999
expect_exit 1 "range and kernels together" "cannot be combined" "$work/good" -o "$work/o" \
	--range step --kernels 0:1
expect_exit 1 "range in a trace without NVTX" "no NVTX range named step" "$work/good" -o "$work/o" \
	--range step
[ -e "$work/o" ] && fail "a refused --range wrote a report"
"$analyze" --help >"$work/stdout" 2>"$work/stderr" || fail "--help exited $?"
grep -q "^usage: dnntrace-analyze TRACE_DIR -o OUT_DIR" "$work/stdout" &&
	[ ! -s "$work/stderr" ] || fail "--help does not print the usage to stdout only"
echo "bad input rejected with one line and the right exit code"
