#!/bin/bash
# check.sh: the full-system test.  A cached debootstrap'ed Debian 12
# (tests/system/rootfs.sh) gets the uaccessd .deb installed with dpkg, the
# debug kernel's modules, the unprivileged waitid PoC, uk_daemon_check (a
# JSON reader) and the guest test;
# it boots under QEMU TCG with systemd as PID 1 and reports TAP on its
# second serial port (tests/system/guest/system.t).
#
# Needs build/kernel/debug (scripts/kernel-build.sh debug) and the .deb
# in build/pkg (make deb); `make system-check` makes both.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
work=$top/build/system
kdir=${KERNEL_DIR:-$top/build/kernel/debug}
res=$work/results
timeout=${VM_TIMEOUT:-300}
t0=$(date +%s)
step() { echo "# system-check: $* [$(($(date +%s) - t0)) s]"; }

deb=${UACCESSD_DEB:-$(ls "$top"/build/pkg/uaccessd_*_amd64.deb 2>/dev/null | tail -n 1)}
[ -n "$deb" ] || { echo "not ok - the uaccessd .deb exists (run make deb)"; exit 1; }
[ -f "$kdir/arch/x86/boot/bzImage" ] || { echo "not ok - $kdir is built"; exit 1; }

step "root filesystem"
"$top/tests/system/rootfs.sh" "$work/rootfs" | sed 's/^/# /'
make -s -C "$top/tests/vm/guest" O="$top/build/vm/guest" \
	"$top/build/vm/guest/waitid_poc" "$top/build/vm/guest/uk_daemon_check"

step "staging: rootfs + $(basename "$deb") + modules + test"
stage=$work/stage
rm -rf "$stage"
cp -a "$work/rootfs" "$stage"
cp "$deb" "$stage/tmp/"
if ! chroot "$stage" dpkg -i "/tmp/$(basename "$deb")" >"$work/dpkg.log" 2>&1; then
	sed 's/^/# /' "$work/dpkg.log"
	echo "not ok - dpkg -i $(basename "$deb") in the Debian 12 root filesystem"
	exit 1
fi
echo "ok - dpkg -i $(basename "$deb") in the Debian 12 root filesystem"
rm "$stage/tmp/$(basename "$deb")"
cp -a "$kdir/modroot/lib/modules" "$stage/lib/"
echo test_uaccess_kaddr >"$stage/etc/modules-load.d/test_uaccess_kaddr.conf"
install -m 0755 "$top/build/vm/guest/waitid_poc" "$stage/usr/local/bin/"
# the guest test reads uaccessctl's JSON with it (the image has no jq)
install -m 0755 "$top/build/vm/guest/uk_daemon_check" "$stage/usr/local/bin/"
install -d "$stage/usr/local/lib/uaccess-system-check"
install -m 0755 "$top/tests/system/guest/system.t" "$stage/usr/local/lib/uaccess-system-check/"
install -m 0644 "$top/tests/system/guest/uaccess-system-check.service" "$stage/etc/systemd/system/"
ln -sf /etc/systemd/system/uaccess-system-check.service \
	"$stage/etc/systemd/system/multi-user.target.wants/uaccess-system-check.service"
echo uaccess-system >"$stage/etc/hostname"
printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$stage/etc/fstab"
# debugfs for the test module's addresses file
printf 'debugfs /sys/kernel/debug debugfs defaults 0 0\n' >>"$stage/etc/fstab"
: >"$stage/etc/machine-id"

img=$work/system.img
rm -f "$img"
mkfs.ext4 -q -F -L root -d "$stage" "$img" 1G

step "booting $(basename "$kdir") kernel with systemd as PID 1"
rm -rf "$res"
mkdir -p "$res"
start=$(date +%s)
rc=0
timeout -k 10 "$timeout" qemu-system-x86_64 -cpu max -smp 2 -m 1024 \
	-machine q35 -accel tcg -nographic -no-reboot -nodefaults \
	-kernel "$kdir/arch/x86/boot/bzImage" \
	-append "root=/dev/vda rw console=ttyS0 loglevel=4 panic=-1 kunit.enable=0" \
	-drive "file=$img,format=raw,if=virtio" \
	-serial "file:$res/console.log" -serial "file:$res/results.tap" \
	</dev/null >"$res/qemu.log" 2>&1 || rc=$?
secs=$(($(date +%s) - start))
cat "$res/results.tap"
if grep -q '^# uaccess-vm: done' "$res/results.tap"; then
	echo "ok - the system booted, ran the test and powered off (${secs} s under TCG)"
else
	echo "not ok - the system booted, ran the test and powered off (qemu exit $rc after ${secs} s)"
	tail -n 40 "$res/console.log" | sed 's/^/# console: /'
fi
# Its reports, as a fuzzer's console reader sees them.
"$top/tests/vm/report_format.py" "$res/console.log"
step "done"
