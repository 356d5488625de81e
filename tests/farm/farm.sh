#!/bin/bash
# farm.sh [--seconds N] VARIANT...: the fuzz farm in miniature.
#
# Boots each VARIANT (the syzbot-like kernels: kasan, 6.12-kasan) in a QEMU
# TCG VM, one after another, where trinity fuzzes as nobody for N seconds
# (default 120) and the PoCs make the re-opened bugs it cannot reach
# (tests/vm/guest/farm.sh); uaccessd in each VM forwards its events to the
# journal and systemd-journal-upload sends them to one
# systemd-journal-remote here.  tests/farm/evaluate.py then reads each
# console as the farm's console reader would, with the project's
# syzkaller-compatible checker, and the uploaded journal: every re-opened
# bug found and titled once, nothing else reported.  Prints TAP, counted
# as farm-VARIANT (tests/lib/tap.py); the run's files are in build/farm/.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
secs=120
if [ "${1:-}" = --seconds ]; then
	secs=${2:?--seconds needs a number}
	shift 2
fi
case "$secs" in '' | *[!0-9]*) echo "farm.sh: --seconds '$secs' is not a number" >&2; exit 2 ;; esac
[ $# -gt 0 ] || { echo "usage: farm.sh [--seconds N] VARIANT..." >&2; exit 2; }
out=$top/build/farm
status=0

make -s -C "$top/tests/vm/guest" O="$top/build/vm/guest" || exit 1
rm -rf "$out"
mkdir -p "$out/remote"

# One journal-remote for the whole farm, on a port of the loopback that
# only the VMs' forwarded connections reach (QEMU's user network with
# restrict=on: a guest reaches nothing else of the host).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/lib/systemd/systemd-journal-remote --listen-http="127.0.0.1:$port" \
	--output="$out/remote/" --split-mode=host >"$out/journal-remote.log" 2>&1 &
remote_pid=$!
trap 'kill "$remote_pid" 2>/dev/null' EXIT
for _ in $(seq 50); do
	python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
	sleep 0.1
done

for variant in "$@"; do
	name=farm-$variant
	res=$top/build/vm/results/$name
	initrd=$out/$variant.cpio.gz
	"$top/tests/vm/mkinitramfs.sh" "$variant" "$initrd" "$top"/build/vm/guest/* \
		/usr/bin/trinity /lib/systemd/systemd-journal-upload || exit 1
	echo "farm: booting $variant for $secs s of fuzzing"
	# The KUnit suite's own reports stay out of the farm's console.
	VM_INITRD=$initrd VM_TIMEOUT=$((secs * 4 + 900)) \
		VM_QEMU_ARGS="-netdev user,id=n0,restrict=on,guestfwd=tcp:10.0.2.100:19532-tcp:127.0.0.1:$port -device virtio-net-pci,netdev=n0" \
		"$top/tests/vm/run.sh" "$name" "$variant" 5 \
		"kunit.enable=0 uaccess_test.farm=$secs uaccess_test.upload=http://10.0.2.100:19532"
	rc=$?
	{
		if [ "$rc" = 0 ]; then
			echo "ok - $name: the VM fuzzed and finished in $(cat "$res/seconds") s"
		else
			echo "not ok - $name: the VM fuzzed and finished"
		fi
		"$top/tests/vm/report_format.py" "$res/console.log"
		python3 "$top/tests/farm/evaluate.py" "$variant" "$res/console.log" \
			"$res/results.tap" "$out/remote" ||
			echo "not ok - $name: the evaluation ran to its end"
	} >"$res/farm.tap"
	grep -v '^# farm:   ' "$res/results.tap" | grep '^# farm:' || true
	cat "$res/farm.tap"
	"$top/tests/lib/tap.py" count "$name" "$res/farm.tap" || status=1
done
exit $status
