#!/bin/sh
# Install every Debian package that building and testing this project needs.
# Idempotent: when everything is present it only runs dpkg-query and exits.
set -eu

PKGS="
build-essential bc bison flex cpio kmod rsync xz-utils perl python3 python3-yaml python3-jsonschema python3-ply python3-git
libelf-dev libssl-dev dwarves git
linux-source-6.12
qemu-system-x86 busybox-static
pkg-config libnl-3-dev libnl-genl-3-dev libsystemd-dev libsmartcols-dev libjson-c-dev systemd
libcmocka-dev clang libclang-rt-14-dev llvm clang-19 lld-19 llvm-19
debhelper lintian fakeroot rpm debootstrap e2fsprogs systemd-journal-remote
trinity
prometheus prometheus-node-exporter
"

# Mainline's source, Linux 7.3 from trixie-backports, is fetched through a
# private sources list (the machine's own apt sources stay as they are) into
# build/src/.  The series is tested with this version; a newer 7.3.y that has
# replaced it in the archive is taken with a warning.
LINUX_73_VERSION=7.3.4-1~bpo13+1

top=$(cd "$(dirname "$0")/.." && pwd)
src_dir=$top/build/src
tarball_73=$src_dir/linux-source-7.3.tar.xz
# shellcheck source=scripts/apt-private.sh
. "$top/scripts/apt-private.sh"

fetch_linux_73() {
	[ -f "$tarball_73" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		echo "deps.sh: $tarball_73 missing; run as root to fetch linux-source-7.3" >&2
		return 1
	fi
	apt_dir=$src_dir/apt
	apt_private_setup "$apt_dir" \
		'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie-backports main'
	echo "deps.sh: fetching linux-source-7.3 ($LINUX_73_VERSION) from trixie-backports"
	apt_private "$apt_dir" update >/dev/null
	(
		cd "$apt_dir"
		if ! apt_private "$apt_dir" download "linux-source-7.3=$LINUX_73_VERSION" 2>/dev/null; then
			echo "deps.sh: warning: linux-source-7.3 $LINUX_73_VERSION is no longer in the archive; taking its newest 7.3" >&2
			apt_private "$apt_dir" download linux-source-7.3
		fi
	) 2>&1 | grep -v 'unsandboxed as root' >&2 || true
	deb=$(ls "$apt_dir"/linux-source-7.3_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || { echo "deps.sh: linux-source-7.3 could not be downloaded" >&2; return 1; }
	dpkg-deb --fsys-tarfile "$deb" | tar -xf - -O ./usr/src/linux-source-7.3.tar.xz >"$tarball_73.tmp"
	mv "$tarball_73.tmp" "$tarball_73"
	rm -rf "$apt_dir"
}

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done

if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps.sh: missing packages:$missing; run as root to install them" >&2
		exit 1
	fi
	echo "deps.sh: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
fi
fetch_linux_73
"$top/scripts/sparse-fetch.sh"
