#!/bin/bash
# check.sh VARIANT...: boot each kernel variant with 5- and 4-level paging,
# run KUnit and the guest suite, and count the results.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tests/vm
status=0

make -s -C "$vm/guest" O="$top/build/vm/guest" || exit 1

for variant in "$@"; do
	mkdir -p "$top/build/vm"
	"$vm/mkinitramfs.sh" "$variant" "$top/build/vm/$variant.cpio.gz" \
		"$top/build/vm/guest/uk_nltest" || exit 1
	for paging in 5 4; do
		name=$variant-${paging}lvl
		echo "vm: booting $name"
		if "$vm/run.sh" "$name" "$variant" "$paging"; then
			echo "ok - vm $name completed its suite in $(cat "$top/build/vm/results/$name/seconds") s" \
				>>"$top/build/vm/results/$name/results.tap"
		else
			echo "not ok - vm $name completed its suite" >>"$top/build/vm/results/$name/results.tap"
		fi
		"$top/tests/lib/tap.py" count "vm-$name" "$top/build/vm/results/$name/results.tap" ||
			status=1
	done
done
exit $status
