#!/bin/bash
# kernel-bisect.sh [LINE...]: prove that every patch of the series builds on
# its own, on each kernel line (default: mainline 7.3 and the 6.12
# backport).  Checks out each series commit in turn in a worktree
# (build/bisect/LINE/tree) and builds it incrementally with the vm, guest
# and debug fragments (build/bisect/LINE/out: the test kernel without a
# disk's subsystems, which no patch touches); symbols that do not exist yet
# at a commit are dropped by Kconfig.  Prints TAP, one line per patch and line.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cfg=$top/kernel/configs
# shellcheck source=scripts/kernel-line.sh
. "$top/scripts/kernel-line.sh"
status=0

bisect_line() {
	kernel_line_set "$1" || return 1
	local wt=$top/build/bisect/$line/tree out=$top/build/bisect/$line/out
	local frags=() f c i=0 subject start
	for f in vm guest debug; do
		frags+=("$cfg/$f.config")
		[ -f "$cfg/$line/$f.config" ] && frags+=("$cfg/$line/$f.config")
	done
	"$top/scripts/kernel-tree.sh" --line "$line" refs || return 1
	mapfile -t commits < <("$top/scripts/kernel-tree.sh" --line "$line" commits)
	if [ ! -d "$wt" ]; then
		git -C "$line_tree" worktree prune
		git -C "$line_tree" worktree add -q -f --detach "$wt" "${commits[0]}" >/dev/null || return 1
	fi
	mkdir -p "$out"
	for c in "${commits[@]}"; do
		i=$((i + 1))
		git -C "$wt" -c advice.detachedHead=false checkout -q -f --detach "$c"
		subject=$(git -C "$wt" log -1 --format=%s)
		start=$(date +%s)
		make -s -C "$wt" O="$out" tinyconfig >/dev/null &&
			(cd "$out" && "$wt/scripts/kconfig/merge_config.sh" -m -O "$out" .config \
				"${frags[@]}" >/dev/null) &&
			make -s -C "$wt" O="$out" olddefconfig >/dev/null
		if make -s -C "$wt" O="$out" -j"$(nproc)" bzImage modules >"$out/build-$i.log" 2>&1; then
			echo "ok - $line patch $i builds: $subject ($(($(date +%s) - start)) s)"
		else
			echo "not ok - $line patch $i builds: $subject"
			tail -n 20 "$out/build-$i.log" | sed 's/^/# /'
			status=1
		fi
	done
}

# shellcheck disable=SC2086
for l in ${*:-$KERNEL_LINES}; do
	bisect_line "$l" || status=1
done
exit $status
