#!/bin/bash
# kernel-patch-since.sh OUT.patch MSGFILE SNAPSHOT PATH...
# Developer tool: like kernel-patch.sh, but diff build/linux's PATH... against
# copies saved under SNAPSHOT (the state after the previous patch).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1 msg=$2 snap=$3
shift 3
diffs=$(mktemp)
for f in "$@"; do
	old=$snap/$f
	[ -f "$old" ] || old=/dev/null
	if ! cmp -s "$old" "$top/build/linux/$f"; then
		echo "diff --git a/$f b/$f"
		if [ "$old" = /dev/null ]; then
			echo "new file mode 100644"
			diff -u --label /dev/null --label "b/$f" "$old" "$top/build/linux/$f" || true
		else
			diff -u --label "a/$f" --label "b/$f" "$old" "$top/build/linux/$f" || true
		fi
	fi
done >"$diffs"
{
	echo "From: uaccess_kaddr developers <dev@uaccess-kaddr.invalid>"
	echo "Subject: [PATCH] $(head -n 1 "$msg")"
	echo
	tail -n +3 "$msg"
	echo "---"
	git apply --stat "$diffs"
	echo
	cat "$diffs"
} >"$out"
rm -f "$diffs"
echo "wrote $out"
