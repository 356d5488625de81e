#!/bin/bash
# Developer tool: edit patch N of a line's series in place.
#
#   kernel-edit.sh [--line L] checkout N
#                                  put the line's tree (build/linux-L) at the
#                                  state after patch N
#   (edit the files patch N touches, in that tree)
#   kernel-edit.sh [--line L] refresh N [PATH...]
#                                  rewrite patch N from the tree: the diff
#                                  against the state before patch N, for the
#                                  paths it already touches plus PATH...;
#                                  its mail header and message are kept
#
# L is 7.3 (mainline, the default) or 6.12.  Refreshing a 6.12 patch that the
# backport takes from mainline writes the backport's own version of it into
# kernel/backport-6.12/ (add a "[ 6.12: ... ]" note to its message).  A
# backport's hunks on the overlay files of its own change are not refreshed:
# edit them in the patch by hand.
# Then `scripts/kernel-tree.sh [--line L] sync` rebuilds the series; it says
# which later patch no longer applies, if any.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kernel-line.sh
. "$top/scripts/kernel-line.sh"
line=$KERNEL_MAINLINE
if [ "${1:-}" = --line ]; then
	line=${2:?--line needs one of: $KERNEL_LINES}
	shift 2
fi
kernel_line_set "$line" || exit 2
tree=$line_tree
cmd=${1:?usage: kernel-edit.sh [--line L] checkout N | refresh N [PATH...]}
n=${2:?patch number}
shift 2

"$top/scripts/kernel-tree.sh" --line "$line" refs
mapfile -t commits < <("$top/scripts/kernel-tree.sh" --line "$line" commits)
[ "$n" -ge 1 ] && [ "$n" -le "${#commits[@]}" ] || { echo "no patch $n" >&2; exit 1; }
after=${commits[$((n - 1))]}
if [ "$n" = 1 ]; then
	before=$("$top/scripts/kernel-tree.sh" --line "$line" base)
else
	before=${commits[$((n - 2))]}
fi
name=$(grep -v '^#' "$line_series" | awk 'NF { print $1 }' | sed -n "${n}p")
patch=""
for d in $line_series_dirs; do
	if [ -f "$d/$name" ]; then
		patch=$d/$name
		break
	fi
done

case "$cmd" in
checkout)
	git -C "$tree" -c advice.detachedHead=false checkout -q -f --detach "$after"
	echo "${tree#"$top"/} at patch $n: $name"
	;;
refresh)
	own=${line_series%/series}/$name
	if [ "$patch" != "$own" ]; then
		cp "$patch" "$own"
		patch=$own
	fi
	overlay=$(grep -v '^#' "$line_series" | awk -v n="$name" '$1 == n { for (i = 2; i <= NF; i++) print $i }')
	mapfile -t paths < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$patch" |
		grep -vxF -e "$overlay" || true)
	paths+=("$@")
	tmp=$(mktemp)
	# Blank context lines as empty lines: no trailing whitespace in the
	# stored patch (git apply reads them the same).
	git -C "$tree" -c diff.suppressBlankEmpty=true diff "$before" -- \
		"${paths[@]}" >"$tmp"
	python3 - "$patch" "$tmp" "$overlay" <<'PY'
import re, subprocess, sys
path, diff_file, overlay = sys.argv[1:]
text = open(path).read()
diff = open(diff_file).read()
head = text[:text.index('\n---\n') + 5]
# A backport's hunks on its own overlay files are kept as they are.
old = text[text.find('\ndiff --git ') + 1:] if '\ndiff --git ' in text else ''
for block in re.split(r'(?m)^(?=diff --git )', old):
    m = re.match(r'diff --git a/(\S+) ', block)
    if m and m.group(1) in overlay.split():
        diff += block
stat = subprocess.run(['git', 'apply', '--stat'], input=diff, capture_output=True,
                      text=True, check=True).stdout
stat = '\n'.join(line.rstrip() for line in stat.split('\n'))
open(path, 'w').write(head + stat + '\n' + diff)
PY
	rm -f "$tmp"
	echo "refreshed ${patch#"$top"/}"
	;;
*)
	echo "usage: kernel-edit.sh [--line L] checkout N | refresh N [PATH...]" >&2
	exit 2
	;;
esac
