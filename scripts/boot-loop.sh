#!/bin/bash
# Developer tool: boot-loop.sh KERNEL N OUT [PARAMS...]
# Boot KERNEL N times under QEMU TCG (2 vCPUs, two guests at a time),
# without an initrd, to its root-mount panic, and count the boots whose
# console has "Oops: int3": the rare boot-time trap on an upstream static
# key's text poke (docs/kernel-patches.md).  Consoles are kept in OUT.
set -euo pipefail
kernel=${1:?usage: boot-loop.sh KERNEL N OUT [PARAMS...]}
n=${2:?number of boots}
out=${3:?output directory}
shift 3
mkdir -p "$out"
one() {
	local i=$1

	shift
	timeout -k 5 120 qemu-system-x86_64 -cpu max -smp 2 -m 1024 \
		-machine q35 -accel tcg -nographic -no-reboot -nodefaults \
		-kernel "$kernel" \
		-append "console=ttyS0 loglevel=4 panic=-1 kunit.enable=0 $*" \
		-serial "file:$out/$i.log" </dev/null >/dev/null 2>&1 || true
}
for ((b = 0; b < n; b += 2)); do
	one "$b" "$@" &
	one $((b + 1)) "$@" &
	wait
done
boots=$(find "$out" -name '*.log' | wc -l)
oops=$(grep -l 'Oops: int3' "$out"/*.log | wc -l || true)
echo "$oops of $boots boots: Oops: int3"
