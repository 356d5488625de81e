#!/bin/bash
# kernel-lint.sh: the kernel quality gates, as TAP lines.
#  - checkpatch --strict on every patch of both series (build/series for
#    mainline, build/series-6.12 for the backport), run inside the line's
#    tree so that the SPDX and commit checks work: no ERROR, no WARNING
#    (CHECKs are listed; docs/kernel-patches.md justifies them);
#  - sparse (make C=2) on every new kernel source file, in the debug build
#    of each line (build/kernel/debug, build/kernel/6.12-debug) that exists,
#    with the sparse scripts/sparse-fetch.sh builds (Debian 12's is too old
#    for 7.3);
#  - upstream's Kconfig defaults: the detector alone does not refuse the
#    access and does not add the netlink family.
# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is ignored: each
# patch that adds a file adds it to the MAINTAINERS entry.  So is
# UNKNOWN_COMMIT_ID: the trees are release tarballs without history, where
# the commits that Fixes: tags name cannot be looked up.  One WARNING is let
# through, at one place: see below.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kernel-line.sh
. "$top/scripts/kernel-line.sh"
# checkpatch's helpers want Debian's python3 with ply and git modules.
export PATH=/usr/bin:$PATH

"$top/scripts/kernel-series.sh" >/dev/null || { echo "not ok - kernel-series.sh"; exit 0; }
for l in $KERNEL_LINES; do
	kernel_line_set "$l"
	series=$top/build/series
	[ "$line" = "$KERNEL_MAINLINE" ] || series=$top/build/series-$line
	for p in "$series"/0*.patch; do
		name=$(basename "$p")
		[ "$name" = 0000-cover-letter.patch ] && continue
		out=$(cd "$line_tree" && perl scripts/checkpatch.pl --strict --terse --showfile \
			--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$p" 2>&1)
		# The unsafe_*() accessors of asm/uaccess.h take a label to jump
		# to by API design (as unsafe_copy_loop() does upstream): their
		# "Macros with flow control" warning is the contract, not a
		# defect.  Only there is it let through.
		bad=$(echo "$out" | grep -E ': (ERROR|WARNING):' |
			grep -vE '^arch/x86/include/asm/uaccess\.h:[0-9]+: WARNING: Macros with flow control statements' || true)
		checks=$(echo "$out" | grep -c ': CHECK:')
		if [ -z "$bad" ] && ! echo "$out" | grep -q 'total: [1-9][0-9]* errors'; then
			echo "ok - checkpatch --strict $line $name ($checks checks)"
		else
			echo "not ok - checkpatch --strict $line $name"
			echo "$out" | sed 's/^/# /'
		fi
	done
done

# sparse on the files the series adds or changes, compiled in the debug build
# (mm/kasan/report.c is compiled in the KASAN build only).
objs="mm/uaccess_kaddr/core.o mm/uaccess_kaddr/report.o mm/uaccess_kaddr/object.o
mm/uaccess_kaddr/debugfs.o mm/uaccess_kaddr/netlink.o mm/uaccess_kaddr/uaccess_kaddr_test.o
arch/x86/mm/uaccess_kaddr.o lib/test_uaccess_kaddr.o arch/x86/mm/extable.o
arch/x86/kernel/traps.o"
sparse=$top/build/tools/bin/sparse
"$top/scripts/sparse-fetch.sh" >&2 || echo "not ok - sparse-fetch.sh"
for variant in debug 6.12-debug; do
	[ -f "$top/build/kernel/$variant/vmlinux" ] || continue
	kernel_line_set "$(kernel_line_of "$variant")"
	# shellcheck disable=SC2086
	out=$(make -s -C "$line_tree" O="$top/build/kernel/$variant" C=2 CHECK="$sparse" $objs 2>&1)
	rc=$?
	# A sparse the kernel finds too old is skipped by kbuild with only a
	# make warning: that is a failure here, not a clean run.
	warn=$(echo "$out" | grep -E 'warning:|error:|is not available or not up to date')
	if [ "$rc" = 0 ] && [ -z "$warn" ]; then
		echo "ok - sparse (make C=2) on the new files is clean ($variant)"
	else
		echo "not ok - sparse (make C=2) on the new files is clean ($variant)"
		echo "$out" | sed 's/^/# /' | head -n 40
	fi
done

# The static key, the access knob and the reporter entries are plain
# exports, as KASAN's and KCOV's hooks: every module that uses
# __get_user() and friends inlines the check, whatever its licence.
want="uaccess_kaddr_enabled uaccess_kaddr_allow_access __uaccess_kaddr_precheck __uaccess_kaddr_precheck_ac"
symvers=$top/build/kernel/debug/Module.symvers
bad=""
for sym in $want; do
	type=$(awk -v s="$sym" '$2 == s { print $4 }' "$symvers" 2>/dev/null)
	[ "$type" = EXPORT_SYMBOL ] || bad="$bad $sym:${type:-missing}"
done
if [ -z "$bad" ]; then
	echo "ok - the detector's exports are plain EXPORT_SYMBOL (modules of any licence inline the check)"
else
	echo "not ok - the detector's exports are plain EXPORT_SYMBOL # got$bad"
fi

# Upstream's defaults: a kernel that turns the detector on gets reports,
# not refused accesses (CONFIG_DEBUG_UACCESS_KADDR_REFUSE) and not the
# netlink family (CONFIG_DEBUG_UACCESS_KADDR_NETLINK); our fragments set
# both.  Checked on x86_64_defconfig plus the detector, in each line's tree.
for l in $KERNEL_LINES; do
	kernel_line_set "$l"
	tmp=$(mktemp -d)
	make -s -C "$line_tree" O="$tmp" x86_64_defconfig >/dev/null 2>&1 &&
		"$line_tree/scripts/config" --file "$tmp/.config" -e DEBUG_KERNEL -e JUMP_LABEL \
			-e NET -e DEBUG_UACCESS_KADDR &&
		make -s -C "$line_tree" O="$tmp" olddefconfig >/dev/null 2>&1
	got=""
	for sym in DEBUG_UACCESS_KADDR DEBUG_UACCESS_KADDR_REFUSE DEBUG_UACCESS_KADDR_NETLINK; do
		v=$(sed -n "s/^CONFIG_$sym=//p" "$tmp/.config" 2>/dev/null)
		got="$got $sym=${v:-n}"
	done
	rm -rf "$tmp"
	if [ "$got" = " DEBUG_UACCESS_KADDR=y DEBUG_UACCESS_KADDR_REFUSE=n DEBUG_UACCESS_KADDR_NETLINK=n" ]; then
		echo "ok - $line: the detector alone neither refuses nor adds the netlink family"
	else
		echo "not ok - $line: the detector alone neither refuses nor adds the netlink family # got$got"
	fi
done
