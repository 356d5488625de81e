#!/bin/bash
# run.sh NAME VARIANT PAGING [EXTRA_CMDLINE]
# Boot build/kernel/VARIANT under QEMU TCG with the initramfs
# build/vm/VARIANT.cpio.gz (or $VM_INITRD), with 5- or 4-level paging, and
# collect the results port into build/vm/results/NAME/results.tap and the console into
# console.log.  A guest that hangs is killed after VM_TIMEOUT seconds.
# Exit status: 0 when the guest finished its suite, 1 otherwise.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
name=$1 variant=$2 paging=$3 extra=${4:-}
kernel=$top/build/kernel/$variant/arch/x86/boot/bzImage
initrd=${VM_INITRD:-$top/build/vm/$variant.cpio.gz}
res=$top/build/vm/results/$name
# A hang detector, not a time limit: a full suite takes 2-5 minutes of a
# quiet host and three times as long beside kernel builds (TCG shares the
# cores), which the cold make check runs it with.
timeout=${VM_TIMEOUT:-900}

rm -rf "$res"
mkdir -p "$res"
# The suites print about 700 reports in bursts, faster than the serial
# console takes them: with the default 128 KiB log buffer printk drops
# lines ("** N printk messages dropped **") and the console checks would
# read cut reports, as many as the host is slow.  8 MiB holds them all.
cmdline="console=ttyS0 loglevel=4 oops=panic panic=-1 log_buf_len=8M uaccess_test.paging=$paging"
[ "$paging" = 4 ] && cmdline="$cmdline no5lvl"
[ -n "$extra" ] && cmdline="$cmdline $extra"

start=$(date +%s)
timeout -k 10 "$timeout" qemu-system-x86_64 -cpu max -smp 2 -m 1024 \
	-machine q35 -accel tcg -nographic -no-reboot -nodefaults \
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
	-serial "file:$res/console.log" -serial "file:$res/results.tap" \
	${VM_QEMU_ARGS:-} </dev/null >"$res/qemu.log" 2>&1
rc=$?
echo "$(($(date +%s) - start))" >"$res/seconds"

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "run.sh: $name: guest did not finish in ${timeout}s" >&2
elif [ "$rc" != 0 ]; then
	echo "run.sh: $name: qemu exited $rc: $(tail -n 3 "$res/qemu.log")" >&2
fi
if grep -q '^# uaccess-vm: done' "$res/results.tap"; then
	exit 0
fi
echo "run.sh: $name: guest suite did not complete; console tail:" >&2
tail -n 40 "$res/console.log" | sed 's/^/  | /' >&2
exit 1
