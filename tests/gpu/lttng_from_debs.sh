#!/usr/bin/env bash
# lttng_from_debs.sh DEB_DIR: makes LTTng (lttng, lttng-sessiond,
# liblttng-ust) and libbabeltrace2 usable on a GPU machine that has none and
# cannot reach a package registry (the lent device machines: Ubuntu 24.04,
# no internet), from Debian 12 packages carried there. Run as root before
# `make gpu-check` / `make bench-gpu`. Fetch the packages on a machine with
# apt (the list: tests/gpu/README.md, "On a machine without LTTng").
#
# Must never replace a file the machine already has: its own libraries
# (glib, libxml2, OpenSSL, ...) stay; only what is missing is added, with
# `cp -n`, then ldconfig. Everything is unpacked first under a staging
# directory, so a bad package changes nothing.
set -euo pipefail
[ $# = 1 ] && [ -d "$1" ] || { echo "usage: lttng_from_debs.sh DEB_DIR" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "lttng_from_debs.sh: must run as root (adds files under /usr)" >&2; exit 2; }
if command -v lttng-sessiond >/dev/null && ldconfig -p | grep -q 'liblttng-ust\.so\.1 ' &&
	ldconfig -p | grep -q 'libbabeltrace2\.so\.0 '; then
	echo "lttng_from_debs.sh: LTTng and libbabeltrace2 already here"
	exit 0
fi
stage=$(mktemp -d /tmp/lttng-debs.XXXXXX)
for deb in "$1"/*.deb; do dpkg -x "$deb" "$stage"; done
# Debian 12 packages may still put libraries in /lib; the machine's /lib can
# be a link to usr/lib (merged /usr), so merge them into usr/ first.
for d in lib lib64 bin sbin; do
	if [ -d "$stage/$d" ] && [ ! -L "$stage/$d" ]; then
		mkdir -p "$stage/usr/$d"
		cp -a -n "$stage/$d/." "$stage/usr/$d/"
		rm -rf "${stage:?}/$d"
	fi
done
added=$(cd "$stage/usr" && find . \( -type f -o -type l \) | while read -r f; do
	[ -e "/usr/$f" ] || [ -L "/usr/$f" ] || echo "$f"
done | wc -l)
cp -a -n "$stage/usr/." /usr/
ldconfig
rm -rf "$stage"
echo "lttng_from_debs.sh: added $added files under /usr from $(ls "$1"/*.deb | wc -l) packages"
lttng --version | head -n 1
ldconfig -p | grep -E 'liblttng-ust\.so\.1 |libbabeltrace2\.so\.0 ' | sed 's/^\s*/  /'
