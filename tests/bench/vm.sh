#!/bin/bash
# vm.sh VARIANT NAME PLAN [EXTRA_CMDLINE]
# Boot build/kernel/VARIANT under QEMU TCG with -icount shift=0,sleep=off
# (the guest clock counts guest instructions), run the shell fragment PLAN
# inside (tests/bench/guest/init sources it) and collect its output from the
# results port into build/bench/runs/NAME/results.txt (BENCH_OUT instead of
# build/bench), the console into console.log; BENCH_SMP vCPUs (default 2).  The initramfs is the test VM's (tests/vm/mkinitramfs.sh:
# busybox, uaccessd, journald, the variant's modules) with the benchmark's
# init, scripts and uk_bench appended.
# Exit status: 0 when the plan ran to its end.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
variant=$1 name=$2 plan=$3 extra=${4:-}
kdir=$top/build/kernel/$variant
out=$top/build/bench
run=${BENCH_OUT:-$out}/runs/$name
timeout=${BENCH_VM_TIMEOUT:-3600}

make -s -C "$top/tests/bench/guest" O="$out/guest"
make -s -C "$top/tests/vm/guest" O="$out/vmguest"

rm -rf "$run"
mkdir -p "$run"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
"$top/tests/vm/mkinitramfs.sh" "$variant" "$stage/base.cpio.gz" "$out"/vmguest/*
mkdir -p "$stage/root/bench" "$stage/root/usr/bin"
cp "$top/tests/bench/guest/init" "$stage/root/init"
cp "$top"/tests/bench/guest/*.sh "$stage/root/bench/" 2>/dev/null || true
cp "$plan" "$stage/root/bench/plan.sh"
cp "$out/guest/uk_bench" "$stage/root/usr/bin/"
# A second archive after the first: its /init replaces the test VM's.
(cd "$stage/root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 >"$stage/bench.cpio.gz"
cat "$stage/base.cpio.gz" "$stage/bench.cpio.gz" >"$run/initramfs.cpio.gz"

# The soak reads every report back from the kernel log: a few hundred
# reports of a dozen lines outgrow the default 128 KiB buffer.
cmdline="console=ttyS0 loglevel=4 oops=panic panic=-1 log_buf_len=8M $extra"
echo "$cmdline" >"$run/cmdline"
start=$(date +%s)
rc=0
timeout -k 10 "$timeout" qemu-system-x86_64 -cpu max -smp "${BENCH_SMP:-2}" -m 1024 \
	-machine q35 -accel tcg -icount shift=0,sleep=off \
	-nographic -no-reboot -nodefaults \
	-kernel "$kdir/arch/x86/boot/bzImage" -initrd "$run/initramfs.cpio.gz" \
	-append "$cmdline" \
	-serial "file:$run/console.log" -serial "file:$run/results.txt" \
	</dev/null >"$run/qemu.log" 2>&1 || rc=$?
echo "$(($(date +%s) - start))" >"$run/seconds"
rm -f "$run/initramfs.cpio.gz"
if [ "$rc" != 0 ]; then
	echo "vm.sh: $name: qemu exited $rc (timeout ${timeout}s?)" >&2
fi
if grep -q '^# uk-bench: done' "$run/results.txt"; then
	exit 0
fi
echo "vm.sh: $name: the plan did not complete; console tail:" >&2
tail -n 30 "$run/console.log" | sed 's/^/  | /' >&2
exit 1
