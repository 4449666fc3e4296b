#!/bin/sh
# Writes a C table of { value, "name" } pairs for every enumerator of one
# enum in a toolkit header, so the simulated libraries name results exactly
# as the installed CUDA headers do. Never edits the header it reads.
#   gen_names.sh HEADER START_REGEX END_REGEX PREFIX > out.h
set -eu
header=$1 start=$2 end=$3 prefix=$4
[ -f "$header" ] || { echo "gen_names.sh: no such header: $header" >&2; exit 1; }
awk -v start="$start" -v end="$end" -v prefix="$prefix" '
	$0 ~ start { on = 1; next }
	on && $0 ~ end { on = 0 }
	on && $1 ~ ("^" prefix "[A-Za-z0-9_]*$") && $2 == "=" && $3 ~ /^[0-9]+,?$/ {
		v = $3; sub(/,$/, "", v); printf "\t{ %s, \"%s\" },\n", v, $1; n++
	}
	END { if (n == 0) { print "gen_names.sh: no enumerators found" > "/dev/stderr"; exit 1 } }
' "$header"
