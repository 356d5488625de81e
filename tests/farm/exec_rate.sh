#!/bin/bash
# exec_rate.sh [--calls N] VARIANT...: what the detector costs a fuzzer.
#
# Boots each VARIANT once under QEMU TCG with -icount shift=0,sleep=off
# (guest time counts guest instructions, so a busy host does not move the
# figures) and runs the same trinity run, one child, seed 1, N calls
# (default 2000) over the whole table as nobody, with the detector off,
# count, report and off again in that one boot (tests/vm/guest/farm.sh,
# uaccess_test.farm_rate=N).  Prints a Markdown table per variant: calls
# per second of the CPU time trinity used, and each mode's rate against
# the mean of the two runs with the detector off (whose difference is the
# noise).  The
# run's files are in build/vm/results/rate-VARIANT/.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
calls=2000
if [ "${1:-}" = --calls ]; then
	calls=${2:?--calls needs a number}
	shift 2
fi
case "$calls" in '' | *[!0-9]*) echo "exec_rate.sh: --calls '$calls' is not a number" >&2; exit 2 ;; esac
[ $# -gt 0 ] || { echo "usage: exec_rate.sh [--calls N] VARIANT..." >&2; exit 2; }
make -s -C "$top/tests/vm/guest" O="$top/build/vm/guest" || exit 1
mkdir -p "$top/build/farm"
status=0

for variant in "$@"; do
	name=rate-$variant
	res=$top/build/vm/results/$name
	initrd=$top/build/farm/$variant-rate.cpio.gz
	"$top/tests/vm/mkinitramfs.sh" "$variant" "$initrd" "$top"/build/vm/guest/* \
		/usr/bin/trinity || exit 1
	echo "exec_rate: booting $variant: $calls trinity calls in each mode" >&2
	VM_INITRD=$initrd VM_TIMEOUT=7200 VM_QEMU_ARGS="-icount shift=0,sleep=off" \
		"$top/tests/vm/run.sh" "$name" "$variant" 5 \
		"kunit.enable=0 uaccess_test.farm_rate=$calls" || status=1
	python3 - "$variant" "$res/results.tap" "$calls" <<'EOF' || status=1
import re
import sys

variant, path, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = []
with open(path, encoding='utf-8', errors='replace') as fh:
    for line in fh:
        m = re.match(r'# farm-rate: mode (\w+): (\d+|\?) calls in ([\d.]+) s of CPU$', line)
        if m:
            runs.append((m.group(1), m.group(2), float(m.group(3))))
modes = [r[0] for r in runs]
if modes != ['off', 'count', 'report', 'off'] or any(r[1] != str(want) for r in runs):
    print(f'exec_rate: {variant}: the four runs did not all complete: {runs}', file=sys.stderr)
    sys.exit(1)
rate = [want / r[2] for r in runs]
base = (rate[0] + rate[3]) / 2
print(f'\n{variant}: trinity, 1 child, seed 1, {want} calls per mode, guest CPU time (-icount shift=0,sleep=off)\n')
print('| detector | CPU seconds | calls per CPU second | against off |')
print('|---|---:|---:|---:|')
for (mode, _, secs), r in zip(runs, rate):
    print(f'| {mode} | {secs:.2f} | {r:.1f} | {r / base:.3f} |')
print(f'\nThe two runs with the detector off differ by {abs(rate[0] - rate[3]) / base * 100:.1f} %.')
EOF
done
exit $status
