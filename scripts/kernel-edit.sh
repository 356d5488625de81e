#!/bin/bash
# Developer tool: edit patch N of kernel/patches/series in place.
#
#   kernel-edit.sh checkout N      put build/linux at the state after patch N
#   (edit the files patch N touches, in build/linux)
#   kernel-edit.sh refresh N [PATH...]
#                                  rewrite patch N from build/linux: the diff
#                                  against the state before patch N, for the
#                                  paths it already touches plus PATH...;
#                                  its mail header and message are kept
#
# Then `scripts/kernel-tree.sh sync` rebuilds the series; it says which later
# patch no longer applies, if any.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
cmd=${1:?usage: kernel-edit.sh checkout N | refresh N [PATH...]}
n=${2:?patch number}
shift 2

"$top/scripts/kernel-tree.sh" refs
mapfile -t commits < <("$top/scripts/kernel-tree.sh" commits)
[ "$n" -ge 1 ] && [ "$n" -le "${#commits[@]}" ] || { echo "no patch $n" >&2; exit 1; }
after=${commits[$((n - 1))]}
if [ "$n" = 1 ]; then
	before=$("$top/scripts/kernel-tree.sh" base)
else
	before=${commits[$((n - 2))]}
fi
patch=$top/kernel/patches/$(grep -v '^#' "$top/kernel/patches/series" | awk 'NF { print $1 }' | sed -n "${n}p")

case "$cmd" in
checkout)
	git -C "$tree" -c advice.detachedHead=false checkout -q -f --detach "$after"
	echo "build/linux at patch $n: $(basename "$patch")"
	;;
refresh)
	mapfile -t paths < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$patch")
	paths+=("$@")
	tmp=$(mktemp)
	# Blank context lines as empty lines: no trailing whitespace in the
	# stored patch (git apply reads them the same).
	git -C "$tree" -c diff.suppressBlankEmpty=true diff "$before" -- \
		"${paths[@]}" >"$tmp"
	python3 - "$patch" "$tmp" <<'PY'
import subprocess, sys
path, diff_file = sys.argv[1:]
text = open(path).read()
diff = open(diff_file).read()
head = text[:text.index('\n---\n') + 5]
stat = subprocess.run(['git', 'apply', '--stat'], input=diff, capture_output=True,
                      text=True, check=True).stdout
stat = '\n'.join(line.rstrip() for line in stat.split('\n'))
open(path, 'w').write(head + stat + '\n' + diff)
PY
	rm -f "$tmp"
	echo "refreshed $(basename "$patch")"
	;;
*)
	echo "usage: kernel-edit.sh checkout N | refresh N [PATH...]" >&2
	exit 2
	;;
esac
