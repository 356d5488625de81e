#!/bin/bash
# Build one kernel variant out of tree, incrementally.
#
#   kernel-build.sh VARIANT
#
# VARIANT is CONFIG for mainline (Linux 7.3) or 6.12-CONFIG for the LTS
# backport (scripts/kernel-line.sh).  A line's own fragment of the same name
# (kernel/configs/6.12/F.config) is merged right after fragment F.
# Configurations (fragments from kernel/configs/, merged on tinyconfig;
# every one but nodetect starts with vm, the initramfs VM's own needs, and
# all but lean add guest, what the guest suite and journald need; system is
# what a Debian system booted from a disk needs, for tests/system and bench):
#   debug     guest + system + debug   test kernel: detector, KUnit, test
#                                      module (6.12-debug: farm instead of
#                                      system, only mainline's boots a disk)
#   kasan     guest + debug + kasan    clang (LLVM=-19), PREEMPT, KASAN, KCOV:
#             + farm                   the way syzbot builds, with what the
#                                      fuzz farm's re-opened bugs and its
#                                      journal upload need
#   nodetect  nodetect alone           detector compiled out, on tinyconfig
#                                      (the CONFIG_..=n build gate)
#   lean      vm + lean                no kallsyms, no networking, SEV-ES #VC
#                                      emulation built: a small build gate
#   bench     guest + system + bench   production-like (-O2, no lockdep or
#                                      KUnit), detector and test module
#   bench-kasan  ... + bench + kasan   the same with KASAN, KCOV, PREEMPT (gcc,
#                                      like bench and unpatched)
#   unpatched ... + bench + unpatched  the pristine tree (no patch at all),
#                                      in build/linux-LINE-base: the baseline
#
# Output: build/kernel/VARIANT/{arch/x86/boot/bzImage,vmlinux,modroot/}.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
variant=${1:?usage: kernel-build.sh VARIANT}
# shellcheck source=scripts/kernel-line.sh
. "$top/scripts/kernel-line.sh"
kernel_line_set "$(kernel_line_of "$variant")"
config=$(kernel_config_of "$variant")
cfgdir=$top/kernel/configs
tree=$line_tree
out=$top/build/kernel/$variant
jobs=${JOBS:-$(nproc)}

case "$config" in
debug) frags="vm guest system debug" ;;
kasan) frags="vm guest debug kasan farm" ;;
nodetect) frags="nodetect" ;;
lean) frags="vm lean" ;;
bench) frags="vm guest system bench" ;;
bench-kasan) frags="vm guest system bench kasan" ;;
unpatched) frags="vm guest system bench unpatched" ;;
*) echo "kernel-build.sh: unknown variant '$variant'" >&2; exit 2 ;;
esac
# Only mainline's debug kernel boots a Debian system (tests/system); the
# 6.12 one is the farm's in make check instead (6.12-kasan costs another
# twenty minutes of build there, so it is make fuzz-farm's).
if [ "$config" = debug ] && [ "$line" != "$KERNEL_MAINLINE" ]; then
	frags="vm guest debug farm"
fi

# The syzbot-like variant is built with clang: asm goto with outputs, the
# code path of every inlined __get_user() there.
toolchain=()
case "$config" in
kasan) toolchain=(LLVM=-19) ;;
esac

# KERNEL_NO_SYNC=1 builds the tree as it is (for developing patches in it).
if [ -z "${KERNEL_NO_SYNC:-}" ]; then
	"$top/scripts/kernel-tree.sh" --line "$line" sync --inject
fi

# The unpatched kernel builds from a worktree of the base commit, so that the
# patched tree keeps its files (and kbuild its timestamps).
if [ "$config" = unpatched ]; then
	base=$("$top/scripts/kernel-tree.sh" --line "$line" base)
	tree=$line_tree-base
	if [ "$(git -C "$tree" rev-parse -q --verify HEAD 2>/dev/null)" != "$base" ]; then
		rm -rf "$tree"
		git -C "$line_tree" worktree prune
		git -C "$line_tree" worktree add -q --detach "$tree" "$base"
	fi
fi

mkdir -p "$out"
fragfiles=()
for f in $frags; do
	fragfiles+=("$cfgdir/$f.config")
	if [ -f "$cfgdir/$line/$f.config" ]; then
		fragfiles+=("$cfgdir/$line/$f.config")
	fi
done

# Reconfigure only when a fragment or a Kconfig file changed, so that an
# unchanged configuration costs nothing.
stamp=$(cat "${fragfiles[@]}" | sha256sum | cut -d' ' -f1)
stamp="$stamp ${toolchain[*]} $(git -C "$tree" rev-parse HEAD:arch/x86/Kconfig HEAD:lib/Kconfig.debug HEAD:mm/Kconfig)"
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.uaccess-config-stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "kernel-build: configuring $variant from: $frags"
	make -s -C "$tree" O="$out" "${toolchain[@]}" tinyconfig >/dev/null
	(cd "$out" && KCONFIG_CONFIG=.config "$tree/scripts/kconfig/merge_config.sh" \
		-m -O "$out" .config "${fragfiles[@]}" >"$out/merge.log")
	make -s -C "$tree" O="$out" "${toolchain[@]}" olddefconfig >/dev/null
	"$top/scripts/kconfig-verify.sh" "$out/.config" "${fragfiles[@]}"
	echo "$stamp" >"$out/.uaccess-config-stamp"
fi

echo "kernel-build: building $variant ($jobs jobs)"
start=$(date +%s)
if ! make -s -C "$tree" O="$out" "${toolchain[@]}" -j"$jobs" bzImage modules >"$out/build.log" 2>&1; then
	tail -n 60 "$out/build.log" >&2
	echo "kernel-build: $variant build failed (log: $out/build.log)" >&2
	exit 1
fi
grep -E 'warning:|error:' "$out/build.log" || true
rm -rf "$out/modroot"
make -s -C "$tree" O="$out" "${toolchain[@]}" INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 \
	modules_install >/dev/null
echo "kernel-build: $variant ready in $(($(date +%s) - start)) s: $out/arch/x86/boot/bzImage"
