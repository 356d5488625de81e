#!/bin/bash
# kernel-bisect.sh: prove that every patch of the series builds on its own.
# Checks out each series commit in turn in a worktree (build/bisect/tree)
# and builds it incrementally with the debug fragments (build/bisect/out);
# symbols that do not exist yet at a commit are dropped by Kconfig.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
wt=$top/build/bisect/tree
out=$top/build/bisect/out
cfg=$top/kernel/configs

"$top/scripts/kernel-tree.sh" refs || exit 1
mapfile -t commits < <("$top/scripts/kernel-tree.sh" commits)
if [ ! -d "$wt" ]; then
	git -C "$tree" worktree add -f --detach "$wt" "${commits[0]}" >/dev/null || exit 1
fi
mkdir -p "$out"
status=0
i=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	git -C "$wt" -c advice.detachedHead=false checkout -q -f --detach "$c"
	subject=$(git -C "$wt" log -1 --format=%s)
	start=$(date +%s)
	make -s -C "$wt" O="$out" tinyconfig >/dev/null &&
		(cd "$out" && "$wt/scripts/kconfig/merge_config.sh" -m -O "$out" .config \
			"$cfg/base.config" "$cfg/debug.config" >/dev/null) &&
		make -s -C "$wt" O="$out" olddefconfig >/dev/null
	if make -s -C "$wt" O="$out" -j"$(nproc)" bzImage modules >"$out/build-$i.log" 2>&1; then
		echo "ok - patch $i builds: $subject ($(($(date +%s) - start)) s)"
	else
		echo "not ok - patch $i builds: $subject"
		tail -n 20 "$out/build-$i.log" | sed 's/^/# /'
		status=1
	fi
done
exit $status
