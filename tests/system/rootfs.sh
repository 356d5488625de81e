#!/bin/bash
# rootfs.sh DIR: a Debian 12 root filesystem for the full-system test, made
# with debootstrap (minbase + systemd) once and cached: DIR/.stamp names the
# inputs, so an unchanged package list costs nothing on a re-run.
#
# udev is needed: without it systemd waits 90 s for dev-ttyS0.device.
set -euo pipefail

dir=${1:?usage: rootfs.sh DIR}
suite=bookworm
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
include=systemd,systemd-sysv,udev,util-linux,libnl-3-200,libnl-genl-3-200,libjson-c5,kmod
stamp="$suite $mirror $include v1"

if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$stamp" ]; then
	echo "rootfs: cached $dir"
	exit 0
fi

rm -rf "$dir" "$dir.tmp"
mkdir -p "$(dirname "$dir")"
start=$(date +%s)
echo "rootfs: debootstrap $suite (minbase + $include) from $mirror"
if ! debootstrap --variant=minbase --include="$include" "$suite" "$dir.tmp" \
	"$mirror" >"$dir.log" 2>&1; then
	tail -n 20 "$dir.log" >&2
	echo "rootfs: debootstrap failed (log: $dir.log)" >&2
	exit 1
fi
# apt's package lists and the downloaded .debs are not needed in the image.
rm -rf "$dir.tmp"/var/cache/apt/archives/*.deb "$dir.tmp"/var/lib/apt/lists/*
echo "$stamp" >"$dir.tmp/.stamp"
mv "$dir.tmp" "$dir"
echo "rootfs: ready in $(($(date +%s) - start)) s ($(du -sh "$dir" | cut -f1))"
