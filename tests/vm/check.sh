#!/bin/bash
# check.sh BOOT...: boot kernels under QEMU, run KUnit and the guest suite in
# each, and count the results (tests/lib/tap.py, one record per boot).
#
# BOOT is VARIANT/PAGING[/KERNEL_PARAM], e.g. debug/5, debug/4 (no5lvl) or
# debug/5/uaccess_kaddr=warn.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tests/vm
status=0

make -s -C "$vm/guest" O="$top/build/vm/guest" || exit 1
mkdir -p "$top/build/vm"

built=""
for boot in "$@"; do
	IFS=/ read -r variant paging param <<<"$boot"
	case " $built " in
	*" $variant "*) ;;
	*)
		"$vm/mkinitramfs.sh" "$variant" "$top/build/vm/$variant.cpio.gz" \
			"$top"/build/vm/guest/* || exit 1
		built="$built $variant"
		;;
	esac
	name=$variant-${paging}lvl${param:+-${param#*=}}
	echo "vm: booting $name"
	res=$top/build/vm/results/$name
	if "$vm/run.sh" "$name" "$variant" "$paging" "$param"; then
		echo "ok - vm $name completed its suite in $(cat "$res/seconds") s" >>"$res/results.tap"
	else
		echo "not ok - vm $name completed its suite" >>"$res/results.tap"
	fi
	"$top/tests/lib/tap.py" count "vm-$name" "$res/results.tap" || status=1
done
exit $status
