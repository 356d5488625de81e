#!/bin/bash
# mkinitramfs.sh VARIANT OUT.cpio.gz [PROGRAM...]
# Build the test VM's initramfs from host binaries: busybox, the guest init
# and tests, the variant's modules, and each PROGRAM with the shared
# libraries it links (found with ldd).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
variant=$1
out=$2
shift 2
kdir=$top/build/kernel/$variant
stage=$(mktemp -d)
chmod 0755 "$stage"	# the root directory of the guest
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,run,etc,lib,lib64,tests,usr/bin}
cp /bin/busybox "$stage/bin/busybox"
cp "$top/tests/vm/guest/init" "$stage/init"
cp "$top"/tests/vm/guest/*.t "$top/tests/vm/guest/demo.sh" \
	"$top/tests/vm/guest/farm.sh" "$top/tests/vm/guest/lib.sh" "$stage/tests/"
mkdir -p "$stage/usr/lib/systemd/catalog"
cp "$top/packaging/uaccessd.catalog" "$stage/usr/lib/systemd/catalog/"
echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"
echo "nobody:x:65534:65534:nobody:/nonexistent:/bin/sh" >>"$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"
# The release the guest must be running (tests/vm/guest/boot.t).
cp "$kdir/include/config/kernel.release" "$stage/etc/uaccess-kernel-release"
if [ -d "$kdir/modroot/lib/modules" ]; then
	cp -a "$kdir/modroot/lib/modules" "$stage/lib/"
fi

copy_with_libs() {
	local bin=$1 dest=$2 lib
	cp "$bin" "$stage/$dest"
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' | sort -u); do
		[ -f "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

for p in "$@"; do
	case "$p" in
	*.t) copy_with_libs "$p" "tests/$(basename "$p")" ;;
	*.so) mkdir -p "$stage/usr/lib" && copy_with_libs "$p" "usr/lib/$(basename "$p")" ;;
	*) copy_with_libs "$p" "usr/bin/$(basename "$p")" ;;
	esac
done

(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
