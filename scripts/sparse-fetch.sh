#!/bin/sh
# sparse-fetch.sh: build the sparse that the kernel's C=1/C=2 accepts.
#
# Since Linux 6.14, scripts/checker-valid.sh wants a sparse that knows
# __typeof_unqual__; Debian 12's sparse 0.6.4-3 does not, and the kernel
# then prints "sparse is not available or not up to date" and checks
# nothing.  sid's source of sparse builds here with gcc alone (its
# Debian patch only pins the compiler name, so the upstream tarball is
# used).  The result is build/tools/bin/sparse; the machine's own apt
# sources stay as they are.
set -eu

SPARSE_VERSION=0.6.5~rc1-2

top=$(cd "$(dirname "$0")/.." && pwd)
tools=$top/build/tools
bin=$tools/bin/sparse

[ -x "$bin" ] && [ "$(cat "$tools/sparse.version" 2>/dev/null)" = "$SPARSE_VERSION" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "sparse-fetch.sh: $bin missing; run as root to fetch sparse's source" >&2
	exit 1
fi

# shellcheck source=scripts/apt-private.sh
. "$top/scripts/apt-private.sh"
work=$tools/sparse-src
rm -rf "$work"
mkdir -p "$work" "$tools/bin"
apt_private_setup "$work/apt" \
	'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main'
echo "sparse-fetch.sh: fetching sparse $SPARSE_VERSION's source from sid"
apt_private "$work/apt" update >/dev/null
(
	cd "$work"
	if ! apt_private "$work/apt" source --download-only "sparse=$SPARSE_VERSION" >/dev/null 2>&1; then
		echo "sparse-fetch.sh: warning: sparse $SPARSE_VERSION is no longer in sid; taking its newest" >&2
		apt_private "$work/apt" source --download-only sparse >/dev/null
	fi
) 2>&1 | grep -v 'unsandboxed as root' >&2 || true
orig=$(ls "$work"/sparse_*.orig.tar.* 2>/dev/null | head -n 1)
[ -n "$orig" ] || { echo "sparse-fetch.sh: sparse's source could not be downloaded" >&2; exit 1; }
mkdir "$work/src"
tar -xf "$orig" -C "$work/src" --strip-components=1
if ! make -C "$work/src" -j"$(nproc)" CC=gcc HAVE_LLVM=no HAVE_GTK=no HAVE_SQLITE=no \
	HAVE_LIBXML=no sparse >"$work/build.log" 2>&1; then
	tail -n 20 "$work/build.log" >&2
	echo "sparse-fetch.sh: sparse did not build" >&2
	exit 1
fi
cp "$work/src/sparse" "$bin.tmp"
mv "$bin.tmp" "$bin"
dsc=$(ls "$work"/sparse_*.dsc | head -n 1)
basename "$dsc" .dsc | sed 's/^sparse_//' >"$tools/sparse.version"
rm -rf "$work"
echo "sparse-fetch.sh: built $bin"
