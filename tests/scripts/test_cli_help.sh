#!/usr/bin/env bash
# The command line behaves like one: every subcommand of dnntrace and
# dnntrace-analyze answers -h and --help with its usage on stdout, nothing
# on stderr, exit 0 (also after other options, never after --: that is
# CMD's); the top-level help names every option the script's own parser
# and the analyzer accept (read from their sources and the analyzer's
# help, so an option added without its help line fails here); --version
# prints one line whose version is include/dnntrace_version.h's, the one
# place it is written, for dnntrace and dnntrace-analyze alike.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
analyzer="$DNNTRACE_BUILD/bin/dnntrace-analyze"
require_built "$analyzer"

for command in record analyze plot env; do
	for flag in -h --help; do
		"$DNNTRACE" "$command" "$flag" >"$scratch/out" 2>"$scratch/err"
		status=$?
		[ "$status" = 0 ] || fail "dnntrace $command $flag exited $status"
		[ ! -s "$scratch/err" ] || fail "dnntrace $command $flag wrote to stderr: $(head -n 1 "$scratch/err")"
		head -n 1 "$scratch/out" | grep -q "^usage: dnntrace $command" ||
			fail "dnntrace $command $flag: not its usage: $(head -n 1 "$scratch/out")"
	done
done
"$DNNTRACE" record --simgpu -o "$scratch/t" --help >"$scratch/out" 2>&1 &&
	grep -q '^usage: dnntrace record' "$scratch/out" || fail "record OPTIONS --help is not the help"
for flag in -h --help; do
	"$analyzer" "$flag" >"$scratch/out" 2>"$scratch/err" || fail "dnntrace-analyze $flag exited $?"
	[ ! -s "$scratch/err" ] && grep -q "^usage: dnntrace-analyze" "$scratch/out" ||
		fail "dnntrace-analyze $flag: no usage on stdout alone"
	"$DNNTRACE" "$flag" >"$scratch/top" 2>"$scratch/err" || fail "dnntrace $flag exited $?"
	[ ! -s "$scratch/err" ] || fail "dnntrace $flag wrote to stderr"
done

# Every option: the analyzer's (from its help)
# and the case labels of the script's own parser.
options=$( { grep -oE -- '--[a-z][a-z-]+' "$scratch/out"
	sed -n '/^parse_options()/,/^}/p' "$SCRIPTS/dnntrace" |
		grep -oE -- '^[[:space:]]*(-[a-z]\|)?--[a-z][a-z-]+' | grep -oE -- '--[a-z][a-z-]+'
	} | sort -u)
[ "$(echo "$options" | wc -l)" -ge 15 ] || fail "found only $(echo "$options" | wc -l) options to look for"
for option in $options; do
	grep -q -- "$option" "$scratch/top" || fail "dnntrace --help does not mention $option"
done

want=$(sed -n 's/^#define DNNTRACE_VERSION "\(.*\)"$/\1/p' "$DNNTRACE_ROOT/include/dnntrace_version.h")
[ -n "$want" ] || fail "no DNNTRACE_VERSION in include/dnntrace_version.h"
for flag in --version -V; do
	[ "$("$DNNTRACE" "$flag")" = "dnntrace $want" ] || fail "dnntrace $flag: $("$DNNTRACE" "$flag" 2>&1)"
	[ "$("$analyzer" "$flag")" = "dnntrace-analyze $want" ] || fail "dnntrace-analyze $flag: $("$analyzer" "$flag" 2>&1)"
done
exit 0
