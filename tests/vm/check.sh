#!/bin/bash
# check.sh BOOT...: boot kernels under QEMU, run KUnit and the guest suite in
# each, and count the results (tests/lib/tap.py, one record per boot).
#
# BOOT is VARIANT/PAGING[/KERNEL_PARAMS], e.g. debug/5, debug/4 (no5lvl) or
# debug/5/uaccess_kaddr=warn; several parameters are separated by commas.
# With panic_on_warn=1 the guest makes one hit and the kernel must panic.
# Every boot's console is checked as a fuzzer reads it (report_format.py).
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
	suffix=${param#*=}
	case "$param" in *,*) suffix=$(tr ',=' '--' <<<"$param") ;; esac
	name=$variant-${paging}lvl${param:+-$suffix}
	echo "vm: booting $name"
	res=$top/build/vm/results/$name
	case ",$param," in
	*,panic_on_warn=1,* | *,panic_on_taint=0x200,*)
		"$vm/run.sh" "$name" "$variant" "$paging" "${param//,/ }" 2>/dev/null
		"$vm/report_format.py" --expect-panic "$res/console.log" >>"$res/results.tap"
		;;
	*)
		if "$vm/run.sh" "$name" "$variant" "$paging" "${param//,/ }"; then
			echo "ok - vm $name completed its suite in $(cat "$res/seconds") s" >>"$res/results.tap"
		else
			echo "not ok - vm $name completed its suite" >>"$res/results.tap"
		fi
		"$vm/report_format.py" "$res/console.log" >>"$res/results.tap"
		;;
	esac
	"$top/tests/lib/tap.py" count "vm-$name" "$res/results.tap" || status=1
done
exit $status
