#!/bin/sh
# Install every Debian package that building and testing this project needs.
# Idempotent: when everything is present it only runs dpkg-query and exits.
set -eu

PKGS="
build-essential bc bison flex cpio kmod rsync xz-utils perl python3 python3-yaml python3-jsonschema python3-ply python3-git
libelf-dev libssl-dev dwarves sparse git
linux-source-6.12
qemu-system-x86 busybox-static
pkg-config libnl-3-dev libnl-genl-3-dev libsystemd-dev systemd
libcmocka-dev clang libclang-rt-14-dev llvm clang-19 lld-19 llvm-19
debhelper lintian fakeroot rpm debootstrap e2fsprogs systemd-journal-remote
prometheus prometheus-node-exporter
"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing packages:$missing; run as root to install them" >&2
	exit 1
fi

echo "deps.sh: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
